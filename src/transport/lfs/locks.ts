// The Git LFS File Locking API (GitLab 10.8's Projects::LfsLocksApiController): `GET locks`
// (readers; filtered by `id` and `path`), `POST locks` (lock a path), `POST locks/verify`
// (the locks split into the caller's own, `ours`, and everyone else's, `theirs`: what the LFS
// client checks before a push, refusing to push a path someone else holds), `POST
// locks/<id>/unlock` (the owner, or a maintainer with `force`). Writing needs push access.
// A lock shows as `{id (a string), path, locked_at, owner: {name}}`.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import type { LfsLockRow } from '../../finders/lfs_locks.js';
import { lfsLocks } from '../../finders/lfs_locks.js';
import { lockLfsPath, unlockLfsLock, type LockOutcome } from '../../services/lfs/locks.js';
import { mayForceUnlockLfs } from '../../policy/lfs.js';
import { lfsAccess, type LfsRequest } from './access.js';
import { LfsRefusal, readLfsJson, sendLfs, sendLfsError } from './answers.js';

/** As Ruby's Time#to_s(:iso8601) in UTC: seconds, no fraction. */
function lockedAt(stored: string): string {
  return `${new Date(stored).toISOString().slice(0, 19)}Z`;
}

function lockEntity(lock: LfsLockRow): Record<string, unknown> {
  return { id: String(lock.id), path: lock.path, locked_at: lockedAt(lock.created_at), owner: { name: lock.owner_name } };
}

function userOf(req: LfsRequest) {
  if (!req.actor.user) throw new LfsRefusal(403, 'You have no permissions');
  return req.actor.user;
}

function answer(deps: Deps, ctx: Koa.Context, outcome: LockOutcome): void {
  const lock = outcome.lock ? { lock: lockEntity(outcome.lock) } : {};
  if (outcome.message === undefined) sendLfs(ctx, outcome.status, lock);
  else sendLfsError(deps, ctx, outcome.status, outcome.message, lock);
}

function queryFilter(ctx: Koa.Context): { id?: number; path?: string } {
  const filter: { id?: number; path?: string } = {};
  const { id, path } = ctx.query;
  if (typeof id === 'string' && id !== '') filter.id = /^\d{1,10}$/.test(id) ? Number(id) : -1;
  if (typeof path === 'string' && path !== '') filter.path = path;
  return filter;
}

export async function serveLocks(deps: Deps, ctx: Koa.Context, rawFullPath: string): Promise<void> {
  const req = await lfsAccess(deps, ctx, rawFullPath, 'download');
  const locks = await lfsLocks(deps.db, req.project.id, queryFilter(ctx));
  sendLfs(ctx, 200, { locks: locks.map(lockEntity) });
}

export async function serveLock(deps: Deps, ctx: Koa.Context, rawFullPath: string): Promise<void> {
  const req = await lfsAccess(deps, ctx, rawFullPath, 'upload');
  const body = await readLfsJson(ctx);
  answer(deps, ctx, await lockLfsPath(deps.db, req.project.id, userOf(req), body.path));
}

export async function serveLocksVerify(deps: Deps, ctx: Koa.Context, rawFullPath: string): Promise<void> {
  const req = await lfsAccess(deps, ctx, rawFullPath, 'upload');
  await readLfsJson(ctx); // `ref`, `cursor`, `limit`: all locks are answered at once, as 10.8
  const user = userOf(req);
  const locks = await lfsLocks(deps.db, req.project.id);
  sendLfs(ctx, 200, {
    ours: locks.filter((l) => l.user_id === user.id).map(lockEntity),
    theirs: locks.filter((l) => l.user_id !== user.id).map(lockEntity),
  });
}

export async function serveUnlock(deps: Deps, ctx: Koa.Context, rawFullPath: string, id: number): Promise<void> {
  const req = await lfsAccess(deps, ctx, rawFullPath, 'upload');
  const body = await readLfsJson(ctx);
  const user = userOf(req);
  const force = body.force === true;
  answer(deps, ctx, await unlockLfsLock(deps.db, req.project.id, user, id, force, mayForceUnlockLfs(user, req.project, req.access)));
}
