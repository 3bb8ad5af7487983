// Removing uploaded files no upload row names any more (their projects were deleted, or a crash
// came between storing and recording), once they are a day old: a file being uploaded now was
// stored moments ago and is spared until its row is there. A content still named by any row,
// of any project, stays.
import fs from 'node:fs';
import type { Deps } from '../../deps.js';
import { filesUnder } from '../../git/files_under.js';
import { uploadPath, uploadsDir } from './store.js';

const KEPT_MS = 24 * 3600_000;

export async function removeUnreferencedUploads(deps: Deps, at = new Date()): Promise<number> {
  const old: string[] = [];
  for (const rel of await filesUnder(uploadsDir(deps.repos.root))) {
    const sha = rel.slice(rel.lastIndexOf('/') + 1);
    if (!/^[0-9a-f]{64}$/.test(sha) || rel !== `${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`) continue;
    const stat = await fs.promises.stat(uploadPath(deps.repos.root, sha)).catch(() => null);
    if (stat && at.getTime() - stat.mtimeMs > KEPT_MS) old.push(sha);
  }
  let removed = 0;
  for (let i = 0; i < old.length; i += 500) {
    const batch = old.slice(i, i + 500);
    const named = new Set((await deps.db('uploads').whereIn('sha256', batch).distinct('sha256')).map((r: { sha256: string }) => r.sha256));
    for (const sha of batch) {
      if (named.has(sha)) continue;
      await fs.promises.rm(uploadPath(deps.repos.root, sha), { force: true });
      removed++;
    }
  }
  return removed;
}
