// Finding a project's Git LFS objects (GitLab 10.8's project.lfs_objects): the objects linked to
// it, by oid, for the batch API (which of the asked-for objects it has) and for downloads (an
// object may be read through a project only when linked to it).
import type { Conn } from '../store/db.js';

/** Of `oids`, those linked to the project, with their sizes. */
export async function linkedLfsObjects(db: Conn, projectId: number, oids: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (oids.length === 0) return found;
  const rows: { oid: string; size: number | string }[] = await db('lfs_objects_projects as l')
    .join('lfs_objects as o', 'o.id', 'l.lfs_object_id')
    .where('l.project_id', projectId)
    .whereIn('o.oid', oids)
    .select('o.oid', 'o.size');
  for (const r of rows) found.set(r.oid, Number(r.size));
  return found;
}

/** The size of an object linked to the project, or null when it is not. */
export async function linkedLfsObjectSize(db: Conn, projectId: number, oid: string): Promise<number | null> {
  return (await linkedLfsObjects(db, projectId, [oid])).get(oid) ?? null;
}

/** Every object linked to the project (an export's `lfs-objects/`), in oid order. */
export async function lfsObjectsOfProject(db: Conn, projectId: number): Promise<{ oid: string; size: number }[]> {
  const rows: { oid: string; size: number | string }[] = await db('lfs_objects_projects as l')
    .join('lfs_objects as o', 'o.id', 'l.lfs_object_id')
    .where('l.project_id', projectId)
    .orderBy('o.oid')
    .select('o.oid', 'o.size');
  return rows.map((r) => ({ oid: r.oid, size: Number(r.size) }));
}
