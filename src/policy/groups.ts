// Who may see and do what on a group. The only place group permissions are decided.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { INTERNAL, MASTER, NO_ACCESS, OWNER, PUBLIC } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { authorizedProjectIds } from './projects.js';

/** The user's level on the group: the highest membership on it or any ancestor. */
export async function groupLevel(db: Conn, user: UserRow | null, group: NamespaceRow): Promise<number> {
  if (!user) return NO_ACCESS;
  const row = await db('members as m')
    .join('namespace_ancestors as a', 'a.ancestor_id', 'm.source_id')
    .where({ 'm.source_type': 'group', 'm.user_id': user.id, 'a.namespace_id': group.id })
    .whereNull('m.requested_at')
    .max({ level: 'm.access_level' })
    .first();
  return (row as { level: number | null } | undefined)?.level ?? NO_ACCESS;
}

/** Group ids the user belongs to, directly or through an ancestor group. */
export function memberGroupIds(db: Conn, userId: number): Knex.QueryBuilder {
  return db('namespace_ancestors as ga')
    .select('ga.namespace_id')
    .join('members as gm', function () {
      this.on('gm.source_id', '=', 'ga.ancestor_id').andOnVal('gm.source_type', '=', 'group');
    })
    .where('gm.user_id', userId)
    .whereNull('gm.requested_at');
}

/** Groups that contain (at any depth) a project the user is a member of. */
function groupsWithAuthorizedProjects(db: Conn, userId: number): Knex.QueryBuilder {
  return db('projects as gp')
    .select('gpa.ancestor_id')
    .join('namespace_ancestors as gpa', 'gpa.namespace_id', 'gp.namespace_id')
    .whereIn('gp.id', authorizedProjectIds(db, userId));
}

/** Restricts a query on `namespaces` (kind group, under `alias`) to groups the user may see. */
export function whereVisibleGroups(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'namespaces'): Knex.QueryBuilder {
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.where(`${alias}.visibility_level`, PUBLIC);
    if (user) {
      if (isSignedInRegular(user)) w.orWhere(`${alias}.visibility_level`, INTERNAL);
      w.orWhereIn(`${alias}.id`, memberGroupIds(db, user.id));
      w.orWhereIn(`${alias}.id`, groupsWithAuthorizedProjects(db, user.id));
    }
  });
}

export async function canReadGroup(db: Conn, user: UserRow | null, group: NamespaceRow): Promise<boolean> {
  if (isAdmin(user) || group.visibility_level >= PUBLIC) return true;
  if (!user) return false;
  if (group.visibility_level >= INTERNAL && isSignedInRegular(user)) return true;
  if ((await groupLevel(db, user, group)) > NO_ACCESS) return true;
  const viaProject = await groupsWithAuthorizedProjects(db, user.id).where('gpa.ancestor_id', group.id).first();
  return !!viaProject;
}

export type GroupAbility = 'admin_group' | 'admin_group_member' | 'create_projects' | 'read_group_members';

export async function canOnGroup(db: Conn, user: UserRow | null, group: NamespaceRow, ability: GroupAbility): Promise<boolean> {
  if (isAdmin(user)) return true;
  if (!user || user.state === 'blocked') return false;
  const level = await groupLevel(db, user, group);
  switch (ability) {
    case 'read_group_members':
      return canReadGroup(db, user, group);
    case 'create_projects':
      return level >= MASTER;
    case 'admin_group':
    case 'admin_group_member':
      return level >= OWNER;
  }
}

/** May the user create a project in this namespace? Their own, or a group where they are master+. */
export async function canCreateProjectIn(db: Conn, user: UserRow, namespace: NamespaceRow): Promise<boolean> {
  if (namespace.kind === 'user') return namespace.owner_id === user.id || isAdmin(user);
  return canOnGroup(db, user, namespace, 'create_projects');
}
