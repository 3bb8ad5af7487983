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
import { isLfsOid } from '../../git/lfs_store.js';
import { sweepUnrecordedFiles } from '../../git/unrecorded_files.js';
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
  return sweepUnrecordedFiles(lfsStore(deps).objectsDir, {
    isName: isLfsOid,
    recorded: async (oids) => new Set((await deps.db('lfs_objects').whereIn('oid', oids).select('oid')).map((r: { oid: string }) => r.oid)),
    olderThanMs: TEMP_FILES_KEPT_MS,
    at,
  });
}
