// Who may ask to join a project or a group (GitLab 10.8's `request_access` ability of
// ProjectPolicy and GroupPolicy). Answering requests is the member policy's (members.ts:
// update_/destroy_project_member, update_/destroy_group_member on the request), listing them
// is admin_project / admin_group.
// - a project: signed-in users who see it without membership (public, or internal and not
//   external), when its `request_access_enabled` is on and it is not archived; never its
//   members, owner, admins, nor members or requesters of its group (or the group's ancestors);
// - a group: anyone who sees it without membership (public, or internal and not external) and
//   holds no level on it, when its `request_access_enabled` is on — admins included, as their
//   ability is not enabled but refused by GitLab's rules.
// A pending request is not a membership anywhere: every membership query excludes rows with
// `requested_at` set.
import type { Conn } from '../store/db.js';
import type { NamespaceRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { INTERNAL, NO_ACCESS, PUBLIC } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { maxLevel, type ProjectAccess } from './projects.js';
import { refusedOnArchived } from './archived.js';

/** What the project rule needs beyond the user's access: a request to the project's group. */
export interface ProjectRequestFacts {
  /** The user asked to join the project's group or one of its ancestors. */
  groupRequester: boolean;
}

export async function projectRequestFacts(db: Conn, user: UserRow | null, project: ProjectWithNamespace): Promise<ProjectRequestFacts> {
  if (!user || project.namespace.kind !== 'group') return { groupRequester: false };
  const row = await db('members as m')
    .join('namespace_ancestors as a', 'a.ancestor_id', 'm.source_id')
    .where({ 'm.source_type': 'group', 'm.user_id': user.id, 'a.namespace_id': project.namespace_id })
    .whereNotNull('m.requested_at')
    .first('m.id');
  return { groupRequester: !!row };
}

/** ProjectPolicy's request_access (policy-internal: callers use `can()`). */
export function canRequestProjectAccess(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, facts: ProjectRequestFacts): boolean {
  if (!user || user.state === 'blocked' || isAdmin(user)) return false;
  if (!project.request_access_enabled || refusedOnArchived(project, 'request_access')) return false;
  const open = project.visibility_level >= PUBLIC || (project.visibility_level >= INTERNAL && isSignedInRegular(user));
  if (!open) return false;
  return maxLevel(access) === NO_ACCESS && access.groupLevel === null && !facts.groupRequester;
}

/** GroupPolicy's request_access, given the user's level on the group. */
export function canRequestGroupAccess(user: UserRow | null, group: NamespaceRow, level: number): boolean {
  if (!user || user.state === 'blocked' || !group.request_access_enabled) return false;
  const viewGlobally = group.visibility_level >= PUBLIC || (group.visibility_level >= INTERNAL && isSignedInRegular(user));
  return viewGlobally && level === NO_ACCESS;
}
