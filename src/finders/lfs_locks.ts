// Finding a project's Git LFS file locks (GitLab 10.8's Lfs::LocksFinderService): all of them,
// or by `id` and `path` as the locks API filters, each with its owner's name, in id order.
import type { Conn } from '../store/db.js';

export interface LfsLockRow {
  id: number;
  project_id: number;
  user_id: number;
  path: string;
  created_at: string;
  owner_name: string | null;
}

export async function lfsLocks(db: Conn, projectId: number, filter: { id?: number; path?: string } = {}): Promise<LfsLockRow[]> {
  const q = db('lfs_file_locks as k').leftJoin('users as u', 'u.id', 'k.user_id').where('k.project_id', projectId);
  if (filter.id !== undefined) q.where('k.id', filter.id);
  if (filter.path !== undefined) q.where('k.path', filter.path);
  return q.orderBy('k.id', 'asc').select('k.id', 'k.project_id', 'k.user_id', 'k.path', 'k.created_at', 'u.name as owner_name');
}

export async function findLfsLock(db: Conn, projectId: number, filter: { id?: number; path?: string }): Promise<LfsLockRow | undefined> {
  if (filter.id === undefined && filter.path === undefined) return undefined;
  return (await lfsLocks(db, projectId, filter))[0];
}
