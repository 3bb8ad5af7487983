// Deploy keys (GitLab 10.8's DeployKey model, DeployKeyPolicy and Gitlab::GitAccess for a
// deploy-key actor). A deploy key is not a user: it opens the projects it is enabled in, to
// read, and to push where its link says `can_push`. Callers outside policy/ ask through
// `can()` (policy/can.ts) with a DeployKeySubject or a DeployKeyAccessSubject.
//
// - read_project / download_code: the key is enabled in the project, or the project is public
//   (GitAccess#can_read_project? falls back to what a guest may read; a deploy key then
//   passes check_download_access! whatever the project);
// - push_code: the key is enabled in the project with write access; an archived project
//   refuses it as it refuses every write (can() applies policy/archived.ts first: stricter
//   than 10.8, which let a deploy key push into an archived project);
// - per-ref checks of a push: none. 10.8 runs Gitlab::Checks::ChangeAccess with
//   `skip_authorization` for a deploy key, so a key with write access passes protected
//   branches, force pushes, the default branch and existing tags (deployKeyRefCheck);
// - update_deploy_key: admins, or a user who is a member of a project the key is enabled in
//   (Wharf's deploy keys are all private: there is no public deploy key to guard);
// - which keys a user may add to a project by posting the same key, or enable by id: those
//   of projects the user is a member of (User#accessible_deploy_keys); admins, who may reach
//   every project, may enable any key (GitLab gives admins public deploy keys for that).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { Flag, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { projectCan, authorizedProjectIds, type ProjectAccess } from './projects.js';
import { isAdmin } from './users.js';
import type { RefCheck, RefUpdate } from './branches.js';

const NO_MEMBERSHIP: ProjectAccess = { projectLevel: null, groupLevel: null, owner: false };

/** A deploy key reaching a project over git: its link there (null when not enabled in it). */
export interface DeployKeyAccessFacts {
  project: ProjectWithNamespace;
  link: { can_push: Flag } | null;
}

export type DeployKeyAccessAbility = 'read_project' | 'download_code' | 'push_code';

/** The deploy-key actor rule (policy-internal: callers use `can()` of can.ts). */
export function deployKeyAccessCan(facts: DeployKeyAccessFacts, ability: DeployKeyAccessAbility): boolean {
  switch (ability) {
    case 'read_project':
    case 'download_code':
      return !!facts.link || projectCan(null, facts.project, NO_MEMBERSHIP, 'read_project');
    case 'push_code':
      return !!facts.link?.can_push;
  }
}

/** What DeployKeyPolicy needs: whether the key is enabled in a project the user is a member of. */
export interface DeployKeyFacts {
  inUserProjects: boolean;
}

export type DeployKeyAbility = 'update_deploy_key';

export function deployKeyCan(user: UserRow | null, facts: DeployKeyFacts, ability: DeployKeyAbility): boolean {
  if (ability !== 'update_deploy_key' || !user || user.state === 'blocked') return false;
  return isAdmin(user) || facts.inUserProjects;
}

/** Restricts a query on `keys` (deploy keys) to those enabled in a project the user is a member of. */
export function whereInUserProjects(q: Knex.QueryBuilder, db: Conn, user: UserRow): Knex.QueryBuilder {
  return q.whereIn('keys.id', db('deploy_keys_projects').select('deploy_key_id').whereIn('project_id', authorizedProjectIds(db, user.id)));
}

/** Restricts a query on `keys` (deploy keys) to those the user may add to or enable in a project. */
export function whereAccessibleDeployKeys(q: Knex.QueryBuilder, db: Conn, user: UserRow): Knex.QueryBuilder {
  return isAdmin(user) ? q : whereInUserProjects(q, db, user);
}

/** Gitlab::Checks::ChangeAccess#exec with skip_authorization: a deploy key's ref updates pass. */
export function deployKeyRefCheck(update: RefUpdate): RefCheck {
  void update;
  return { allowed: true };
}
