// Git LFS file locks (GitLab 10.8's Lfs::LockFileService and Lfs::UnlockFileService): a user
// with push access locks a path of the project (one lock per path: a second is 409 with the
// lock that holds it); the owner unlocks it, or someone who may administer the project with
// `force`. Who may push and who may force is decided by the caller (policy), and passed in.
import type { Conn } from '../../store/db.js';
import { isUniqueViolation } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import { now } from '../../store/time.js';
import { findLfsLock, type LfsLockRow } from '../../finders/lfs_locks.js';

/** What the locks API answers: a status, the lock concerned, and a message when refused. */
export interface LockOutcome {
  status: number;
  lock?: LfsLockRow;
  message?: string;
}

/** The longest path a lock records (its column's size). */
const MAX_LOCK_PATH = 511;

export async function lockLfsPath(db: Conn, projectId: number, user: { id: number }, path: unknown): Promise<LockOutcome> {
  if (typeof path !== 'string' || path.trim() === '') return { status: 422, message: "Validation failed: Path can't be blank" };
  if (path.length > MAX_LOCK_PATH) return { status: 422, message: `Validation failed: Path is too long (maximum is ${MAX_LOCK_PATH} characters)` };
  try {
    const id = await insertReturningId(db, 'lfs_file_locks', { project_id: projectId, user_id: user.id, path, created_at: now() });
    return { status: 201, lock: await findLfsLock(db, projectId, { id }) };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return { status: 409, message: 'already locked', lock: await findLfsLock(db, projectId, { path }) };
  }
}

export async function unlockLfsLock(db: Conn, projectId: number, user: { id: number }, id: number, force: boolean, mayForce: boolean): Promise<LockOutcome> {
  const lock = await findLfsLock(db, projectId, { id });
  if (!lock) return { status: 404, message: 'Lock not found' };
  if (lock.user_id !== user.id && !(force && mayForce)) {
    return { status: 403, message: force ? 'You must have master access to force delete a lock' : `${lock.path} is locked by GitLab User ${lock.user_id}` };
  }
  await db('lfs_file_locks').where({ id: lock.id }).delete();
  return { status: 200, lock };
}
