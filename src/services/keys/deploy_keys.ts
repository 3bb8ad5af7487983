// Deploy keys of projects (GitLab 10.8 lib/api/deploy_keys.rb, DeployKeysProject and
// Projects::EnableDeployKeyService). A deploy key is a row of `keys` (type DeployKey, its
// creator as user); `deploy_keys_projects` enables it in a project with `can_push`.
//
// Adding a key to a project, in GitLab's order:
//   1. the key is already enabled in this project: that link is the answer, unchanged;
//   2. the key exists and the caller may use it (policy/deploy_keys.ts: it is enabled in a
//      project the caller is a member of): it is enabled here too, with `can_push` as asked;
//   3. otherwise a new key is made, which fails on the taken fingerprint when the key exists
//      elsewhere out of the caller's reach: 400 {"message":{"deploy_key.fingerprint":[...]}}.
// "The key" is the public key itself (its fingerprint), whatever comment it carries; GitLab
// compared the stored text, so a second copy with another comment fell to step 3.
//
// Removing a key from a project removes its link, and the key with it when no project uses it
// any more (DeployKeysProject#destroy_orphaned_deploy_key); deleting projects does the same.
import type { Knex } from 'knex';
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { DeployKeyInProject, KeyRow } from '../../store/keys.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import { whereAccessibleDeployKeys } from '../../policy/deploy_keys.js';
import { deployKeyInProject } from '../../finders/keys.js';
import { insertKey } from './keys.js';
import { keyRestrictionsOf, nested, prepareKey, titleErrors } from './key_validation.js';
import { settingsOf } from '../settings/application_settings.js';

export interface DeployKeyInput {
  title: string;
  key: string;
  can_push?: boolean;
}

async function link(tx: Conn, keyId: number, projectId: number, canPush: boolean): Promise<void> {
  const stamp = now();
  await tx('deploy_keys_projects')
    .insert({ deploy_key_id: keyId, project_id: projectId, can_push: canPush, created_at: stamp, updated_at: stamp })
    .onConflict(['deploy_key_id', 'project_id'])
    .ignore();
}

/** POST /projects/:id/deploy_keys (see the header). */
export async function addDeployKey(deps: Deps, project: ProjectWithNamespace, actor: UserRow, input: DeployKeyInput): Promise<DeployKeyInProject> {
  const raw = input.key.trim();
  const fingerprint = prepareKey(raw).publicKey?.fingerprint;
  const restrictions = keyRestrictionsOf(await settingsOf(deps));
  return deps.db.transaction(async (tx) => {
    if (fingerprint) {
      const existing = await tx('keys').where({ fingerprint, type: 'DeployKey' }).first('id');
      if (existing) {
        const here = await deployKeyInProject(tx, project.id, existing.id);
        if (here) return here;
        const usable = await whereAccessibleDeployKeys(tx('keys').where('keys.id', existing.id), tx, actor).first('keys.id');
        if (usable) {
          await link(tx, existing.id, project.id, !!input.can_push);
          return (await deployKeyInProject(tx, project.id, existing.id))!;
        }
      }
    }
    const key = await insertKey(tx, 'DeployKey', actor.id, { title: input.title, key: raw }, restrictions, (errors) => nested(errors));
    await link(tx, key.id, project.id, !!input.can_push);
    return (await deployKeyInProject(tx, project.id, key.id))!;
  });
}

/** PUT /projects/:id/deploy_keys/:key_id: a new title (the key's, everywhere) and/or can_push (this project's). */
export async function updateDeployKey(deps: Deps, current: DeployKeyInProject, changes: { title?: string; can_push?: boolean }): Promise<DeployKeyInProject> {
  if (changes.title !== undefined) {
    const errors = titleErrors(changes.title);
    if (errors.length) throw new Invalid(nested({ title: errors }));
  }
  const stamp = now();
  return deps.db.transaction(async (tx) => {
    if (changes.title !== undefined) await tx('keys').where({ id: current.id }).update({ title: changes.title, updated_at: stamp });
    if (changes.can_push !== undefined) await tx('deploy_keys_projects').where({ id: current.link_id }).update({ can_push: changes.can_push, updated_at: stamp });
    return (await deployKeyInProject(tx, current.project_id, current.id)) ?? current;
  });
}

/** POST /projects/:id/deploy_keys/:key_id/enable: the key enabled here (read-only when new here). */
export async function enableDeployKey(deps: Deps, project: ProjectWithNamespace, key: KeyRow): Promise<void> {
  await deps.db.transaction((tx) => link(tx, key.id, project.id, false));
}

/** Deletes the deploy keys among `keyIds` that no project uses any more. */
async function deleteOrphans(tx: Conn, keyIds: number[]): Promise<void> {
  if (!keyIds.length) return;
  await tx('keys')
    .where('type', 'DeployKey')
    .whereIn('id', keyIds)
    .whereNotExists(tx('deploy_keys_projects as o').select(tx.raw('1')).whereRaw('o.deploy_key_id = keys.id'))
    .delete();
}

/** DELETE /projects/:id/deploy_keys/:key_id. */
export async function removeDeployKey(deps: Deps, current: DeployKeyInProject): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx('deploy_keys_projects').where({ id: current.link_id }).delete();
    await deleteOrphans(tx, [current.id]);
  });
}

/**
 * Before projects are deleted (inside the deleting transaction): their links go, and the deploy
 * keys only they used. `projectIds` may be a subquery.
 */
export async function removeDeployKeysOfProjects(tx: Conn, projectIds: () => readonly number[] | Knex.QueryBuilder): Promise<void> {
  const ids = () => projectIds() as Knex.QueryBuilder; // whereIn takes a list or a subquery alike
  const rows: { deploy_key_id: number }[] = await tx('deploy_keys_projects').distinct('deploy_key_id').whereIn('project_id', ids());
  if (!rows.length) return;
  await tx('deploy_keys_projects').whereIn('project_id', ids()).delete();
  await deleteOrphans(
    tx,
    rows.map((r) => r.deploy_key_id),
  );
}
