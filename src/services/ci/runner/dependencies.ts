// GitLab's `dependencies`: before the script, the artifacts of earlier stages' jobs of the same
// pipeline are unpacked into the checkout — of every earlier job by default, of the named ones
// when `dependencies` lists names, of none for `[]`. The archives are Wharf's own (built from
// checked paths, links only inside the checkout); `unzip` (installed by the Makefile, with git)
// also refuses entries that would leave the folder.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Deps } from '../../../deps.js';
import type { BuildRow } from '../../../store/ci_rows.js';
import { artifactsFile } from './storage.js';
import type { TraceWriter } from './trace.js';

const run = promisify(execFile);

export async function unpackDependencies(deps: Deps, build: BuildRow, names: string[] | undefined, projectDir: string, trace: TraceWriter): Promise<void> {
  if (names && !names.length) return;
  let query = deps.db('ci_builds')
    .where({ pipeline_id: build.pipeline_id, retried: false, status: 'success' })
    .where('stage_idx', '<', build.stage_idx)
    .whereNotNull('artifacts_file')
    .orderBy('id');
  if (names) query = query.whereIn('name', names);
  const sources: BuildRow[] = await query;
  for (const source of sources) {
    const zip = artifactsFile(deps, source.project_id, source.id);
    if (!fs.existsSync(zip)) continue;
    trace.note(`Downloading artifacts for ${source.name} (${source.id})...`);
    await run('unzip', ['-q', '-o', zip, '-d', projectDir], { env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' }, timeout: 300_000 });
  }
}
