// Deploy keys (GitLab 10.8 lib/api/deploy_keys.rb): every deploy key of the instance (admins),
// and a project's keys for its masters (`admin_project`, asked before the parameters as
// GitLab's `before { authorize_admin_project }`):
// - list, get (a key not enabled in the project is a record lookup's "404 Not found"), add
//   (services/keys/deploy_keys.ts: an existing key is joined when the caller may use it; 201 either
//   way), update title and/or can_push (`update_deploy_key` on the key, after the lookup),
//   remove (404 Deploy Key Not Found; the key goes when no project uses it; 412 with a stale
//   If-Unmodified-Since), and enable by id (201 with the key; 404 Deploy Key Not Found when
//   the caller may not use it).
// Project responses carry the project's `can_push`; the instance list and enable do not.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { DeployKeyInProject, KeyRow } from '../store/keys.js';
import { forbidden, notFound, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { can } from '../policy/can.js';
import { deployKeyInProject, deployKeysQuery, findAccessibleDeployKey, keyInUserProjects, projectDeployKeysQuery } from '../finders/keys.js';
import { deployKeyInProject as present, sshKey } from '../entities/ssh_key.js';
import { addDeployKey, enableDeployKey, removeDeployKey, updateDeployKey } from '../services/keys/deploy_keys.js';

const BASE = '/projects/:id/deploy_keys';
const KEY = { schema: 'DeployKeysProject' } as const;
const keyId = { key_id: p.integer().required() };

async function enabledKey(deps: Deps, projectId: number, id: number): Promise<DeployKeyInProject | undefined> {
  return deployKeyInProject(deps.db, projectId, id);
}

export const deployKeyRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/deploy_keys',
    auth: 'admin',
    summary: 'Every deploy key of the instance (admins)',
    response: { schema: 'SSHKey', list: true },
    handler: async ({ ctx, deps }) => (await paginate<KeyRow>(ctx, deps.db, deployKeysQuery(deps.db))).map(sshKey),
  }),

  route({
    method: 'GET',
    path: BASE,
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    summary: "A project's deploy keys with can_push",
    response: { ...KEY, list: true },
    handler: async ({ ctx, deps, project }) => (await paginate<DeployKeyInProject>(ctx, deps.db, projectDeployKeysQuery(deps.db, project.id))).map(present),
  }),

  route({
    method: 'GET',
    path: `${BASE}/:key_id`,
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: keyId,
    summary: 'One deploy key of a project',
    response: KEY,
    handler: async ({ deps, project, params: v }) => {
      const key = await enabledKey(deps, project.id, v.key_id);
      if (!key) throw recordNotFound();
      return present(key);
    },
  }),

  route({
    method: 'POST',
    path: BASE,
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: { key: p.string().required(), title: p.string().required(), can_push: p.boolean() },
    summary: 'Add a deploy key to a project (an existing one the caller may use is joined)',
    response: KEY,
    handler: async ({ deps, user, project, params: v }) => present(await addDeployKey(deps, project, user, v)),
  }),

  route({
    method: 'PUT',
    path: `${BASE}/:key_id`,
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: { ...keyId, title: p.string(), can_push: p.boolean() },
    rules: { atLeastOneOf: ['title', 'can_push'] },
    summary: "Change a deploy key's title or its can_push in this project",
    response: KEY,
    handler: async ({ deps, user, project, params: v }) => {
      const key = await enabledKey(deps, project.id, v.key_id);
      if (!key) throw recordNotFound();
      if (!can(user, { kind: 'deploy_key', inUserProjects: await keyInUserProjects(deps.db, user, key.id) }, 'update_deploy_key')) {
        throw forbidden();
      }
      return present(await updateDeployKey(deps, key, { title: v.title, can_push: v.can_push }));
    },
  }),

  route({
    method: 'DELETE',
    path: `${BASE}/:key_id`,
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: keyId,
    summary: 'Remove a deploy key from a project (deleted when no project uses it any more)',
    handler: async ({ ctx, deps, project, params: v }) => {
      const key = await enabledKey(deps, project.id, v.key_id);
      if (!key) throw notFound('Deploy Key');
      checkUnmodifiedSince(ctx, key.link_updated_at);
      await removeDeployKey(deps, key);
    },
  }),

  route({
    method: 'POST',
    path: `${BASE}/:key_id/enable`,
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: keyId,
    summary: 'Enable an existing deploy key in a project (201 with the key)',
    response: { schema: 'SSHKey' },
    handler: async ({ deps, user, project, params: v }) => {
      const key = await findAccessibleDeployKey(deps.db, user, v.key_id);
      if (!key) throw notFound('Deploy Key');
      await enableDeployKey(deps, project, key);
      return sshKey(key);
    },
  }),
];
