// Finding SSH keys: a user's keys, every deploy key, a project's deploy keys with their
// per-project `can_push`, and any key by its fingerprint (what git over SSH authenticates with).
// Lists are in id order (GitLab's default scope), one query per page.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { DeployKeyInProject, KeyRow } from '../store/keys.js';
import type { UserRow } from '../store/rows.js';
import { whereAccessibleDeployKeys, whereInUserProjects } from '../policy/deploy_keys.js';

/** A user's own keys (GET /user/keys, /users/:id/keys). */
export function userKeysQuery(db: Conn, userId: number): Knex.QueryBuilder {
  return db('keys').where({ type: 'Key', user_id: userId }).orderBy('id', 'asc');
}

export async function findUserKey(db: Conn, userId: number, keyId: number): Promise<KeyRow | undefined> {
  return db('keys').where({ type: 'Key', user_id: userId, id: keyId }).first();
}

/** Any key, a user's or a deploy key (GET /keys/:id). */
export async function findKey(db: Conn, id: number): Promise<KeyRow | undefined> {
  return db('keys').where({ id }).first();
}

/** Every deploy key of the instance (GET /deploy_keys). */
export function deployKeysQuery(db: Conn): Knex.QueryBuilder {
  return db('keys').where({ type: 'DeployKey' }).orderBy('id', 'asc');
}

/** A project's deploy keys, each with its link (GET /projects/:id/deploy_keys), in the order they were enabled. */
export function projectDeployKeysQuery(db: Conn, projectId: number): Knex.QueryBuilder {
  return db('deploy_keys_projects as l')
    .join('keys', 'keys.id', 'l.deploy_key_id')
    .where('l.project_id', projectId)
    .select('keys.*', 'l.can_push', 'l.id as link_id', 'l.project_id', 'l.updated_at as link_updated_at')
    .orderBy('l.id', 'asc');
}

/** One deploy key as enabled in a project, or undefined when it is not enabled there. */
export async function deployKeyInProject(db: Conn, projectId: number, keyId: number): Promise<DeployKeyInProject | undefined> {
  return projectDeployKeysQuery(db, projectId).where('l.deploy_key_id', keyId).first();
}

/** The key with this fingerprint (either kind), or undefined. */
export async function findKeyByFingerprint(db: Conn, fingerprint: string): Promise<KeyRow | undefined> {
  return db('keys').where({ fingerprint }).first();
}

/** A deploy key's link to a project (its `can_push` there), or undefined. */
export async function deployKeyLink(db: Conn, keyId: number, projectId: number): Promise<{ can_push: boolean | number } | undefined> {
  return db('deploy_keys_projects').where({ deploy_key_id: keyId, project_id: projectId }).first('can_push');
}

/** A deploy key the user may enable in a project (User#accessible_deploy_keys), or undefined. */
export async function findAccessibleDeployKey(db: Conn, user: UserRow, id: number): Promise<KeyRow | undefined> {
  return whereAccessibleDeployKeys(db('keys').select('keys.*').where({ 'keys.type': 'DeployKey', 'keys.id': id }), db, user).first();
}

/** Whether the key is enabled in a project the user is a member of. */
export async function keyInUserProjects(db: Conn, user: UserRow, id: number): Promise<boolean> {
  return !!(await whereInUserProjects(db('keys').where('keys.id', id), db, user).first('keys.id'));
}
