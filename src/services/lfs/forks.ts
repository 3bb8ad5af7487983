// A fork downloads its parent's Git LFS objects: at fork time every object linked to the parent
// is linked to the fork too (rows only: the stored file is shared, never copied). GitLab 10.8
// instead looked objects up through the fork network's root (Project#lfs_storage_project),
// which lost them when the parent was deleted; a link of its own keeps them for the fork.
import type { Conn } from '../../store/db.js';
import { now } from '../../store/time.js';
import { recountLfsObjectsSize } from './statistics.js';

export async function shareLfsObjectsWithFork(db: Conn, parentId: number, forkId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.raw(
      `insert into lfs_objects_projects (lfs_object_id, project_id, created_at)
       select lfs_object_id, ?, ? from lfs_objects_projects where project_id = ?`,
      [forkId, now(), parentId],
    );
    await recountLfsObjectsSize(tx, forkId);
  });
}
