// The Git LFS paths of a repository, as GitLab 10.8 routes them (config/routes/git_http.rb), told
// apart by plain string tests (nothing that can backtrack on a client's path):
//   POST …/<project>.git/info/lfs/objects/batch          the Batch API
//   POST …/<project>.git/info/lfs/objects/verify         the basic transfer's verify action
//   POST …/<project>.git/info/lfs/objects, GET …/objects/<oid>   the legacy API: 501
//   GET, POST …/<project>.git/info/lfs/locks              list, create
//   POST …/<project>.git/info/lfs/locks/verify           ours and theirs
//   POST …/<project>.git/info/lfs/locks/<id>/unlock
//   GET …/<project>.git/gitlab-lfs/objects/<oid>          download
//   PUT …/<project>.git/gitlab-lfs/objects/<oid>/<size>   upload
import { isLfsOid } from '../../git/lfs_store.js';

export type LfsAction =
  | { kind: 'batch' }
  | { kind: 'verify' }
  | { kind: 'legacy' }
  | { kind: 'locks' }
  | { kind: 'lock' }
  | { kind: 'locks_verify' }
  | { kind: 'unlock'; id: number }
  | { kind: 'download'; oid: string }
  | { kind: 'upload'; oid: string; size: number }
  | { kind: 'unknown' };

export interface LfsPath {
  /** `namespace/project`, still percent-encoded. */
  rawFullPath: string;
  action: LfsAction;
}

const DIGITS = /^\d{1,19}$/;

function objectsAction(method: string, rest: string[]): LfsAction {
  if (rest.length === 0) return method === 'POST' ? { kind: 'legacy' } : { kind: 'unknown' };
  if (rest.length === 1 && rest[0] === 'batch' && method === 'POST') return { kind: 'batch' };
  if (rest.length === 1 && rest[0] === 'verify' && method === 'POST') return { kind: 'verify' };
  if (rest.length === 1 && method === 'GET') return { kind: 'legacy' };
  return { kind: 'unknown' };
}

function locksAction(method: string, rest: string[]): LfsAction {
  if (rest.length === 0) return method === 'GET' ? { kind: 'locks' } : method === 'POST' ? { kind: 'lock' } : { kind: 'unknown' };
  if (rest.length === 1 && rest[0] === 'verify' && method === 'POST') return { kind: 'locks_verify' };
  if (rest.length === 2 && rest[1] === 'unlock' && method === 'POST' && DIGITS.test(rest[0])) return { kind: 'unlock', id: Number(rest[0]) };
  return { kind: 'unknown' };
}

function storageAction(method: string, rest: string[]): LfsAction {
  if (rest.length === 0 || !isLfsOid(rest[0])) return { kind: 'unknown' };
  if (rest.length === 1 && (method === 'GET' || method === 'HEAD')) return { kind: 'download', oid: rest[0] };
  if (rest.length === 2 && method === 'PUT' && DIGITS.test(rest[1])) return { kind: 'upload', oid: rest[0], size: Number(rest[1]) };
  return { kind: 'unknown' };
}

/** The LFS path of a repository, or null when `path` is none (git's own paths included). */
export function parseLfsPath(method: string, path: string): LfsPath | null {
  const at = path.indexOf('.git/');
  if (at <= 1 || path[0] !== '/') return null;
  const rawFullPath = path.slice(1, at);
  const rest = path.slice(at + '.git/'.length).split('/');
  if (rest[0] === 'info' && rest[1] === 'lfs') {
    if (rest[2] === 'objects') return { rawFullPath, action: objectsAction(method, rest.slice(3)) };
    if (rest[2] === 'locks') return { rawFullPath, action: locksAction(method, rest.slice(3)) };
    return { rawFullPath, action: { kind: 'unknown' } };
  }
  if (rest[0] === 'gitlab-lfs' && rest[1] === 'objects') return { rawFullPath, action: storageAction(method, rest.slice(2)) };
  return null;
}
