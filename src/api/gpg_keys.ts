// Users' GPG keys (GitLab 10.8 lib/api/users.rb): the signed-in user's own keys and an admin's
// view of anyone's.
// - `/user/gpg_keys`: list, get, add, delete, revoke; another user's key is "404 GPG Key Not Found";
// - `/users/:id/gpg_keys`: admins only (list, add, delete, revoke; getting one is a later
//   GitLab's route, which python-gitlab's user.gpgkeys.get asks); `:id` is digits (404 User
//   Not Found for an unknown number);
// - a new key is read with the openpgp library and validated as the GpgKey model does
//   (services/gpg_keys/validation.ts): a text that is not one armored public key block is 400
//   {"message":{"key":["is invalid. A valid public GPG key begins with …"]}}, a key in use is
//   "has already been taken";
// - the answer is `{id, key, created_at}`; deleting answers 204 (10.8 asks no If-Unmodified-Since
//   here), revoking 202 with the bare status as its body, as Grape renders `status :accepted`.
// 10.8's API shows no commit signatures (its /repository/commits/:sha/signature came later).
import type Koa from 'koa';
import { HANDLED, route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { GpgKeyRow } from '../store/gpg_key_rows.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { findUserGpgKey, userGpgKeysQuery } from '../finders/gpg_keys.js';
import { gpgKey } from '../entities/gpg_key.js';
import { createGpgKey, deleteGpgKey } from '../services/gpg_keys/gpg_keys.js';

const GPG_KEY = { schema: 'GPGKey' } as const;
const keyId = { key_id: p.integer().required() };
const newKey = { key: p.string().required() };

async function ownKey(deps: Deps, user: UserRow, id: number): Promise<GpgKeyRow> {
  const row = await findUserGpgKey(deps.db, user.id, id);
  if (!row) throw notFound('GPG Key');
  return row;
}

async function keysPage(ctx: Parameters<typeof paginate>[0], deps: Deps, user: UserRow) {
  return (await paginate<GpgKeyRow>(ctx, deps.db, userGpgKeysQuery(deps.db, user.id))).map(gpgKey);
}

/** Revoke: the key goes (its signatures would turn unverified); Grape's body is the status, `202`. */
async function revoke(ctx: Koa.Context, deps: Deps, user: UserRow, id: number): Promise<typeof HANDLED> {
  await deleteGpgKey(deps, await ownKey(deps, user, id));
  ctx.status = 202;
  ctx.body = '202';
  ctx.set('Content-Type', 'application/json');
  return HANDLED;
}

export const gpgKeyRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/user/gpg_keys',
    auth: 'user',
    summary: "The signed-in user's GPG keys",
    response: { ...GPG_KEY, list: true },
    handler: ({ ctx, deps, user }) => keysPage(ctx, deps, user),
  }),

  route({
    method: 'GET',
    path: '/user/gpg_keys/:key_id',
    auth: 'user',
    params: keyId,
    summary: 'One GPG key of the signed-in user',
    response: GPG_KEY,
    handler: async ({ deps, user, params: v }) => gpgKey(await ownKey(deps, user, v.key_id)),
  }),

  route({
    method: 'POST',
    path: '/user/gpg_keys',
    auth: 'user',
    params: newKey,
    summary: 'Add a GPG key (an armored public key) to the signed-in user',
    response: GPG_KEY,
    handler: async ({ deps, user, params: v }) => gpgKey(await createGpgKey(deps, user, v)),
  }),

  route({
    method: 'POST',
    path: '/user/gpg_keys/:key_id/revoke',
    auth: 'user',
    params: keyId,
    status: 202,
    summary: 'Revoke a GPG key of the signed-in user (it is removed)',
    response: { schema: 'integer' },
    handler: ({ ctx, deps, user, params: v }) => revoke(ctx, deps, user, v.key_id),
  }),

  route({
    method: 'DELETE',
    path: '/user/gpg_keys/:key_id',
    auth: 'user',
    params: keyId,
    summary: 'Delete a GPG key of the signed-in user',
    handler: async ({ deps, user, params: v }) => deleteGpgKey(deps, await ownKey(deps, user, v.key_id)),
  }),

  route({
    method: 'GET',
    path: '/users/:id/gpg_keys',
    auth: 'admin',
    load: 'user',
    summary: "A user's GPG keys (admins)",
    response: { ...GPG_KEY, list: true },
    handler: ({ ctx, deps, target }) => keysPage(ctx, deps, target),
  }),

  route({
    method: 'GET',
    path: '/users/:id/gpg_keys/:key_id',
    auth: 'admin',
    load: 'user',
    params: keyId,
    summary: "One GPG key of a user (admins; later GitLab, python-gitlab 3.x's user.gpgkeys.get)",
    response: GPG_KEY,
    handler: async ({ deps, target, params: v }) => gpgKey(await ownKey(deps, target, v.key_id)),
  }),

  route({
    method: 'POST',
    path: '/users/:id/gpg_keys',
    auth: 'admin',
    load: 'user',
    params: newKey,
    summary: 'Add a GPG key to a user (admins)',
    response: GPG_KEY,
    handler: async ({ deps, target, params: v }) => gpgKey(await createGpgKey(deps, target, v)),
  }),

  route({
    method: 'POST',
    path: '/users/:id/gpg_keys/:key_id/revoke',
    auth: 'admin',
    load: 'user',
    params: keyId,
    status: 202,
    summary: "Revoke a user's GPG key (admins; it is removed)",
    response: { schema: 'integer' },
    handler: ({ ctx, deps, target, params: v }) => revoke(ctx, deps, target, v.key_id),
  }),

  route({
    method: 'DELETE',
    path: '/users/:id/gpg_keys/:key_id',
    auth: 'admin',
    load: 'user',
    params: keyId,
    summary: "Delete a user's GPG key (admins)",
    handler: async ({ deps, target, params: v }) => deleteGpgKey(deps, await ownKey(deps, target, v.key_id)),
  }),
];
