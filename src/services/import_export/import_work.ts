// The work folder of a project import (where the export archive is unpacked and its bundle
// verified), as GitLab 10.8's importer had: a temporary folder of the import's own, removed
// when the import ends (Gitlab::ImportExport::Importer's `ensure remove_import_file`, and
// FileImporter's tmp dir). Here it is `<repos>/@wharf/tmp/import.job-<job id>.<random>`:
// removed when the import ends, finished or failed (performImport's `finally`), and at start
// every such folder of an import that no longer runs — its job not running under a lease that
// is still alive, or (a folder not named after a job) older than a job lease — so that a
// process killed in mid-import leaves nothing behind for good, while an import another live
// process runs keeps its folder.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';

const PREFIX = 'import.';
const JOB_PREFIX = `${PREFIX}job-`;

/** A new work folder's path for the import job `jobId` (not made yet). */
export function importWorkDir(deps: Deps, jobId: number): string {
  return path.join(deps.repos.tmpDir, `${JOB_PREFIX}${jobId}.${crypto.randomBytes(8).toString('hex')}`);
}

/** The job a work folder's name names, or null (a folder of an older version: `import.<pid>.<random>`). */
function jobIdOf(name: string): number | null {
  if (!name.startsWith(JOB_PREFIX)) return null;
  const digits = name.slice(JOB_PREFIX.length).split('.')[0];
  return digits !== '' && /^\d{1,15}$/.test(digits) ? Number(digits) : null;
}

/** Removes a temp folder of an import; a failure is logged, never thrown (the import's own outcome stands). */
export async function removeTempFolder(deps: Deps, dir: string): Promise<void> {
  try {
    await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch (err) {
    deps.log.warn({ err, dir }, 'an import work folder could not be removed; it goes at the next start');
  }
}

/** The ids among `ids` of jobs running under a lease not yet expired at `at`. */
async function liveJobIds(deps: Deps, ids: number[], at: Date): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows: { id: number }[] = await deps.db('jobs').whereIn('id', ids).where('state', 'running').where('locked_until', '>=', at.toISOString()).select('id');
  return new Set(rows.map((r) => Number(r.id)));
}

/** At start: removes the work folders of imports no longer running; answers how many went. */
export async function sweepImportWork(deps: Deps, at = new Date()): Promise<number> {
  const names = (await fs.promises.readdir(deps.repos.tmpDir)).filter((n) => n.startsWith(PREFIX));
  const ids = names.map(jobIdOf).filter((id): id is number => id !== null);
  const live = await liveJobIds(deps, [...new Set(ids)], at);
  let removed = 0;
  for (const name of names) {
    const dir = path.join(deps.repos.tmpDir, name);
    const id = jobIdOf(name);
    if (id !== null && live.has(id)) continue;
    if (id === null) {
      const stat = await fs.promises.stat(dir).catch(() => null);
      if (!stat || at.getTime() - stat.mtimeMs <= deps.config.jobLeaseMs) continue;
    }
    await removeTempFolder(deps, dir);
    removed += 1;
  }
  if (removed) deps.log.warn({ folders: removed }, 'removed the work folders of imports that no longer run');
  return removed;
}
