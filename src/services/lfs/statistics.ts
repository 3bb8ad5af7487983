// A project's `statistics.lfs_objects_size`: the bytes of the LFS objects linked to it (GitLab
// 10.8's ProjectStatistics#update_lfs_objects_size, `project.lfs_objects.sum(:size)`),
// recounted in the transaction that links or unlinks an object, so it is never stale.
import type { Conn } from '../../store/db.js';
import { now } from '../../store/time.js';

/**
 * Recounts after the transaction changed the project's links. The statistics row is taken
 * first (an update), and only then summed, in a new statement: on PostgreSQL two uploads to one
 * project thus count one after the other, the second seeing the first's link.
 */
export async function recountLfsObjectsSize(tx: Conn, projectId: number): Promise<void> {
  const stamp = now();
  const locked = await tx('project_statistics').where({ project_id: projectId }).update({ updated_at: stamp });
  if (!locked) await tx('project_statistics').insert({ project_id: projectId, updated_at: stamp }).onConflict('project_id').ignore();
  const row: { total?: number | string | null } | undefined = await tx('lfs_objects_projects as l')
    .join('lfs_objects as o', 'o.id', 'l.lfs_object_id')
    .where('l.project_id', projectId)
    .sum({ total: 'o.size' })
    .first();
  await tx('project_statistics')
    .where({ project_id: projectId })
    .update({ lfs_objects_size: Number(row?.total ?? 0) });
}
