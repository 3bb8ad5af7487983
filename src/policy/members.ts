// Who may change or remove a membership (GitLab 10.8's GroupMemberPolicy and
// ProjectMemberPolicy: update_group_member, destroy_group_member, update_project_member,
// destroy_project_member). Adding members is `admin_group` / `admin_project` on the source,
// decided by its own policy. Asked through `can()` (policy/can.ts) with the facts loaded here.
import type { Conn } from '../store/db.js';
import type { MemberRow, NamespaceRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { OWNER } from './levels.js';
import { groupCan, groupFacts, type GroupFacts } from './groups.js';
import { projectCan, type ProjectAccess } from './projects.js';

export type GroupMemberAbility = 'update_group_member' | 'destroy_group_member';
export type ProjectMemberAbility = 'update_project_member' | 'destroy_project_member';

/** What a group membership decision needs: the user's facts on the group, and the last-owner rule. */
export interface GroupMemberFacts {
  group: GroupFacts;
  member: MemberRow;
  /** The member is the group's only direct owner. */
  lastOwner: boolean;
}

/**
 * A group's only direct owner: nobody (not even an admin) may change or remove that membership.
 * Owners of ancestor groups do not count, as in GitLab.
 */
async function isLastOwner(db: Conn, group: NamespaceRow, member: MemberRow): Promise<boolean> {
  if (member.access_level !== OWNER || member.requested_at !== null) return false;
  const row = await db('members').where({ source_type: 'group', source_id: group.id, access_level: OWNER }).whereNull('requested_at').count({ n: '*' }).first();
  return Number((row as { n: number | string } | undefined)?.n ?? 0) === 1;
}

/** Loads the facts of a group membership decision (inside the write's transaction, so that two owners cannot both leave). */
export async function groupMemberFacts(db: Conn, user: UserRow | null, group: NamespaceRow, member: MemberRow): Promise<GroupMemberFacts> {
  return { group: await groupFacts(db, user, group), member, lastOwner: await isLastOwner(db, group, member) };
}

/** The group membership rule (policy-internal: callers use `can()`). Members may leave. */
export function groupMemberCan(user: UserRow | null, facts: GroupMemberFacts, ability: GroupMemberAbility): boolean {
  if (!user || facts.lastOwner) return false;
  if (ability === 'destroy_group_member' && facts.member.user_id === user.id) return true; // leaving
  return groupCan(user, facts.group, 'admin_group_member');
}

/**
 * The project membership rule (policy-internal: callers use `can()`). The owner of a personal
 * project keeps their membership of it: nobody may change or remove it. Anyone may leave a
 * project; masters (and admins) manage the others.
 */
export function projectMemberCan(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, member: MemberRow, ability: ProjectMemberAbility): boolean {
  if (!user) return false;
  if (project.namespace.kind === 'user' && project.namespace.owner_id === member.user_id) return false;
  if (ability === 'destroy_project_member' && member.user_id === user.id) return true;
  return projectCan(user, project, access, 'admin_project_member');
}
