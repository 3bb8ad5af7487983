// Who may change or remove a membership (GitLab's GroupMemberPolicy and ProjectMemberPolicy).
// Adding members is `admin_group` / `admin_project` on the source, decided by its own policy.
import type { Conn } from '../store/db.js';
import type { MemberRow, NamespaceRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { OWNER } from './levels.js';
import { canOnGroup } from './groups.js';
import { projectCan, type ProjectAccess } from './projects.js';

export type MemberAction = 'update' | 'destroy';

/**
 * A group's only direct owner: nobody (not even an admin) may change or remove that membership.
 * Owners of ancestor groups do not count, as in GitLab.
 */
export async function isLastOwner(db: Conn, group: NamespaceRow, member: MemberRow): Promise<boolean> {
  if (member.access_level !== OWNER || member.requested_at !== null) return false;
  const row = await db('members')
    .where({ source_type: 'group', source_id: group.id, access_level: OWNER })
    .whereNull('requested_at')
    .count({ n: '*' })
    .first();
  return Number((row as { n: number | string } | undefined)?.n ?? 0) === 1;
}

export async function canOnGroupMember(
  db: Conn,
  user: UserRow | null,
  group: NamespaceRow,
  member: MemberRow,
  action: MemberAction,
): Promise<boolean> {
  if (!user) return false;
  if (await isLastOwner(db, group, member)) return false;
  if (action === 'destroy' && member.user_id === user.id) return true; // leaving
  return canOnGroup(db, user, group, 'admin_group_member');
}

/**
 * The owner of a personal project keeps their membership of it: nobody may change or remove
 * it. Anyone may leave a project; masters (and admins) manage the others.
 */
export function canOnProjectMember(
  user: UserRow | null,
  project: ProjectWithNamespace,
  access: ProjectAccess,
  member: MemberRow,
  action: MemberAction,
): boolean {
  if (!user) return false;
  if (project.namespace.kind === 'user' && project.namespace.owner_id === member.user_id) return false;
  if (action === 'destroy' && member.user_id === user.id) return true;
  return projectCan(user, project, access, 'admin_project_member');
}
