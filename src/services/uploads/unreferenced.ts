// Removing uploaded files no upload row names any more (their projects were deleted, or a crash
// came between storing and recording), once they are a day old: a file being uploaded now was
// stored moments ago and is spared until its row is there. A content still named by any row,
// of any project, stays.
import type { Deps } from '../../deps.js';
import { sweepUnrecordedFiles } from '../../git/unrecorded_files.js';
import { uploadsDir } from './store.js';

const KEPT_MS = 24 * 3600_000;

export async function removeUnreferencedUploads(deps: Deps, at = new Date()): Promise<number> {
  return sweepUnrecordedFiles(uploadsDir(deps.repos.root), {
    isName: (name) => /^[0-9a-f]{64}$/.test(name),
    recorded: async (shas) => new Set((await deps.db('uploads').whereIn('sha256', shas).distinct('sha256')).map((r: { sha256: string }) => r.sha256)),
    olderThanMs: KEPT_MS,
    at,
  });
}
