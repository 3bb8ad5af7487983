// Removing Git LFS objects no project links any more (GitLab 10.8's RemoveUnreferencedLfsObjectsWorker,
// LfsObject.destroy_unreferenced): the last project that had the object was deleted, or it was
// never linked (a crash between storing and recording). Each object goes in a transaction of its
// own that deletes the row only while no link exists and removes the file before committing: an
// upload of the same oid meanwhile waits for it (its insert conflicts on the row) and then puts
// the file back. Objects recorded in the last hour are spared, and so are uploads still
// arriving (their temporary files are swept only a day later). Files of the store that no row
// names (a crash between storing and recording) go once they are a day old: an upload being
// recorded placed its file moments ago.
import type { Deps } from '../../deps.js';
import fs from 'node:fs';
import { isLfsOid } from '../../git/lfs_store.js';
import { filesUnder } from '../../git/files_under.js';
import { lfsStore } from './objects.js';

const GRACE_MS = 3600_000;
const TEMP_FILES_KEPT_MS = 24 * 3600_000;

export async function removeUnreferencedLfsObjects(deps: Deps, at = new Date()): Promise<number> {
  const store = lfsStore(deps);
  const before = new Date(at.getTime() - GRACE_MS).toISOString();
  const candidates: { id: number; oid: string }[] = await deps
    .db('lfs_objects as o')
    .leftJoin('lfs_objects_projects as l', 'l.lfs_object_id', 'o.id')
    .whereNull('l.id')
    .where('o.updated_at', '<', before)
    .select('o.id', 'o.oid');
  let removed = 0;
  for (const { id, oid } of candidates) {
    await deps.db.transaction(async (tx) => {
      const gone = await tx('lfs_objects')
        .where({ id })
        .where('updated_at', '<', before)
        .whereNotExists((q) => q.select(tx.raw('1')).from('lfs_objects_projects').where('lfs_object_id', id))
        .delete();
      if (gone) {
        await store.remove(oid);
        removed++;
      }
    });
  }
  await store.sweepTemp(TEMP_FILES_KEPT_MS, at.getTime());
  return removed + (await removeUnrecordedFiles(deps, at));
}

/** Removes store files older than a day that no `lfs_objects` row names. */
async function removeUnrecordedFiles(deps: Deps, at: Date): Promise<number> {
  const store = lfsStore(deps);
  const old: string[] = [];
  for (const rel of await filesUnder(store.objectsDir)) {
    const oid = rel.slice(rel.lastIndexOf('/') + 1);
    if (!isLfsOid(oid) || rel !== `${oid.slice(0, 2)}/${oid.slice(2, 4)}/${oid}`) continue;
    const stat = await fs.promises.stat(store.pathOf(oid)).catch(() => null);
    if (stat && at.getTime() - stat.mtimeMs > TEMP_FILES_KEPT_MS) old.push(oid);
  }
  let removed = 0;
  for (let i = 0; i < old.length; i += 500) {
    const batch = old.slice(i, i + 500);
    const recorded = new Set((await deps.db('lfs_objects').whereIn('oid', batch).select('oid')).map((r: { oid: string }) => r.oid));
    for (const oid of batch) {
      if (recorded.has(oid)) continue;
      await store.remove(oid);
      removed++;
    }
  }
  return removed;
}
