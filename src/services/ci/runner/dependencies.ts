// GitLab's `dependencies`: before the script, the artifacts of earlier stages' jobs of the same
// pipeline are unpacked into the checkout — of every earlier job by default, of the named ones
// when `dependencies` lists names, of none for `[]`. The server picks the archives and shows
// them read-only in the job's sandbox; sandbox_helper.ts unpacks them there as the job's user,
// refusing any entry that is a link, passes through one (a link committed in the checkout
// included) or leaves the folder, each with a line in the trace.
import fs from 'node:fs';
import type { Deps } from '../../../deps.js';
import type { BuildRow } from '../../../store/ci_rows.js';
import { artifactsFile } from './storage.js';
import type { TraceWriter } from './trace.js';
import type { JobSpace } from './job_space.js';
import { runControlled, type RunControl } from './run_shell.js';

/** Unpacks the dependencies' archives; false when the helper failed (the job fails then). */
export async function unpackDependencies(deps: Deps, build: BuildRow, names: string[] | undefined, space: JobSpace, trace: TraceWriter, control: RunControl): Promise<boolean> {
  if (names && !names.length) return true;
  let query = deps
    .db('ci_builds')
    .where({ pipeline_id: build.pipeline_id, retried: false, status: 'success' })
    .where('stage_idx', '<', build.stage_idx)
    .whereNotNull('artifacts_file')
    .orderBy('id');
  if (names) query = query.whereIn('name', names);
  const sources: BuildRow[] = await query;
  const archives: { label: string; zip: string }[] = [];
  for (const source of sources) {
    const zip = artifactsFile(deps, source.project_id, source.id);
    if (!fs.existsSync(zip)) continue;
    archives.push({ label: `${source.name} (${source.id})`, zip: space.readOnly(zip, `dependency-${source.id}.zip`) });
  }
  if (!archives.length) return true;
  const code = await runControlled(space.config, space.helperStep('unpack', archives), space.helperEnv(), trace, control);
  return code === 0 || control.stopReason() !== null;
}
