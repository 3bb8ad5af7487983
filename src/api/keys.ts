// Users' SSH keys (GitLab 10.8 lib/api/users.rb and lib/api/keys.rb): the signed-in user's own
// keys, an admin's view of anyone's, and any key by id for admins (with its user).
// - `/user/keys`: list, get, add, delete; another user's key is "404 Key Not Found";
// - `/users/:id/keys`: admins only in 10.8, listing included (later GitLab opened the list to
//   everyone); `:id` is digits (404 User Not Found for an unknown number);
// - `/keys/:id`: admins; a missing key is a plain record lookup's "404 Not found";
// - a new key is validated as the Key model does (services/keys/key_validation.ts): a key already
//   in use anywhere is 400 {"message":{"fingerprint":["has already been taken"]}};
// - deleting honours If-Unmodified-Since (412) and answers 204.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { KeyRow } from '../store/keys.js';
import { notFound, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findKey, findUserKey, userKeysQuery } from '../finders/keys.js';
import { findUserById } from '../finders/users.js';
import { sshKey, sshKeyWithUser } from '../entities/ssh_key.js';
import { ghostUser } from '../entities/user.js';
import { presentUser } from './present_users.js';
import { createUserKey, deleteUserKey } from '../services/keys/keys.js';

const KEY = { schema: 'SSHKey' } as const;
const newKey = { key: p.string().required(), title: p.string().required() };
const keyId = { key_id: p.integer().required() };

async function ownKey(deps: Deps, user: UserRow, id: number): Promise<KeyRow> {
  const key = await findUserKey(deps.db, user.id, id);
  if (!key) throw notFound('Key');
  return key;
}

async function keysPage(ctx: Parameters<typeof paginate>[0], deps: Deps, user: UserRow) {
  return (await paginate<KeyRow>(ctx, deps.db, userKeysQuery(deps.db, user.id))).map(sshKey);
}

export const keyRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/user/keys',
    auth: 'user',
    summary: "The signed-in user's SSH keys",
    response: { ...KEY, list: true },
    handler: ({ ctx, deps, user }) => keysPage(ctx, deps, user),
  }),

  route({
    method: 'GET',
    path: '/user/keys/:key_id',
    auth: 'user',
    params: keyId,
    summary: 'One SSH key of the signed-in user',
    response: KEY,
    handler: async ({ deps, user, params: v }) => sshKey(await ownKey(deps, user, v.key_id)),
  }),

  route({
    method: 'POST',
    path: '/user/keys',
    auth: 'user',
    params: newKey,
    summary: 'Add an SSH key to the signed-in user',
    response: KEY,
    handler: async ({ deps, user, params: v }) => sshKey(await createUserKey(deps, user, v)),
  }),

  route({
    method: 'DELETE',
    path: '/user/keys/:key_id',
    auth: 'user',
    params: keyId,
    summary: 'Delete an SSH key of the signed-in user',
    handler: async ({ ctx, deps, user, params: v }) => {
      const key = await ownKey(deps, user, v.key_id);
      checkUnmodifiedSince(ctx, key.updated_at);
      await deleteUserKey(deps, key);
    },
  }),

  route({
    method: 'GET',
    path: '/users/:id/keys',
    auth: 'admin',
    load: 'user',
    summary: "A user's SSH keys (admins)",
    response: { ...KEY, list: true },
    handler: ({ ctx, deps, target }) => keysPage(ctx, deps, target),
  }),

  route({
    method: 'POST',
    path: '/users/:id/keys',
    auth: 'admin',
    load: 'user',
    params: newKey,
    summary: 'Add an SSH key to a user (admins)',
    response: KEY,
    handler: async ({ deps, target, params: v }) => sshKey(await createUserKey(deps, target, v)),
  }),

  route({
    method: 'DELETE',
    path: '/users/:id/keys/:key_id',
    auth: 'admin',
    load: 'user',
    params: keyId,
    summary: "Delete a user's SSH key (admins)",
    handler: async ({ ctx, deps, target, params: v }) => {
      const key = await ownKey(deps, target, v.key_id);
      checkUnmodifiedSince(ctx, key.updated_at);
      await deleteUserKey(deps, key);
    },
  }),

  route({
    method: 'GET',
    path: '/keys/:id',
    auth: 'admin',
    summary: 'Any SSH key with its user (admins)',
    response: { schema: 'SSHKeyWithUser' },
    handler: async ({ deps, path }) => {
      const key = /^\d{1,15}$/.test(path.id) ? await findKey(deps.db, Number(path.id)) : undefined;
      if (!key) throw recordNotFound();
      const owner = key.user_id === null ? undefined : await findUserById(deps.db, key.user_id);
      return sshKeyWithUser(key, owner ? await presentUser(deps.db, deps.urls, owner, 'public') : ghostUser(deps.urls));
    },
  }),
];
