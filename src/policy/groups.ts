// Who may see and do what on a group. The only place group permissions are decided.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { INTERNAL, MASTER, NO_ACCESS, OWNER, PUBLIC, REPORTER } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { authorizedProjectIds, whereVisibleProjects } from './projects.js';
import { canRequestGroupAccess } from './access_requests.js';

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

/** Ids of the groups the user is a direct member of (access requests excluded). */
function directGroupIds(db: Conn, userId: number): Knex.QueryBuilder {
  return db('members').select('source_id').where({ source_type: 'group', user_id: userId }).whereNull('requested_at');
}

/** Visibility levels anyone in the user's position sees without membership. */
function openLevels(user: UserRow | null): number[] {
  if (isAdmin(user)) return [0, INTERNAL, PUBLIC];
  return isSignedInRegular(user) ? [INTERNAL, PUBLIC] : [PUBLIC];
}

export interface GroupListScope {
  /** Every group the user may see, not only their own (GitLab's `all_available`). */
  allAvailable: boolean;
  /** Only groups the user directly owns. */
  owned: boolean;
}

/**
 * Restricts a query on `namespaces` (kind group, under `alias`) to the groups GitLab 10.8 lists
 * for the user (GroupsFinder): owned ones; or for admins with all_available every group; or the
 * user's groups — those they are a member of with their descendants, and those holding a project
 * they are authorized on with their ancestors — plus, with all_available or when anonymous, the
 * groups open to them (public; internal when signed in and not external).
 */
export function whereListedGroups(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, scope: GroupListScope, alias = 'namespaces'): Knex.QueryBuilder {
  const id = `${alias}.id`;
  if (scope.owned) {
    if (!user) return q.whereRaw('1 = 0');
    return q.whereIn(id, directGroupIds(db, user.id).where('access_level', OWNER));
  }
  if (isAdmin(user) && scope.allAvailable) return q;
  return q.where((w) => {
    if (user) {
      const authorized = directGroupIds(db, user.id).union(db('projects').select('namespace_id').whereIn('id', authorizedProjectIds(db, user.id)));
      w.whereIn(id, db('namespace_ancestors').select('ancestor_id').whereIn('namespace_id', authorized));
      w.orWhereIn(id, db('namespace_ancestors').select('namespace_id').whereIn('ancestor_id', directGroupIds(db, user.id)));
    }
    if (!user || scope.allAvailable) w.orWhereIn(`${alias}.visibility_level`, openLevels(user));
  });
}

/**
 * GitLab's read_group: public; internal for signed-in regular users; members of it or an
 * ancestor; admins; and anyone who can see a project in it, in a subgroup, or shared with it.
 */
export async function canReadGroup(db: Conn, user: UserRow | null, group: NamespaceRow, knownLevel?: number): Promise<boolean> {
  if (isAdmin(user) || group.visibility_level >= PUBLIC) return true;
  if (group.visibility_level >= INTERNAL && isSignedInRegular(user)) return true;
  if ((knownLevel ?? (await groupLevel(db, user, group))) > NO_ACCESS) return true;
  const projects = db('projects')
    .select('projects.id')
    .where((w) =>
      w
        .whereIn('projects.namespace_id', db('namespace_ancestors').select('namespace_id').where('ancestor_id', group.id))
        .orWhereIn('projects.id', db('project_group_links').select('project_id').where('group_id', group.id)),
    );
  whereVisibleProjects(projects, db, user);
  return !!(await projects.first());
}

export type GroupAbility =
  'read_group' | 'admin_group' | 'admin_group_member' | 'create_projects' | 'admin_build' | 'create_subgroup' | 'read_group_members' | 'request_access' | 'admin_list';

/** What a group decision needs, loaded once: the user's level on it and whether they may read it. */
export interface GroupFacts {
  group: NamespaceRow;
  /** groupLevel(): the highest membership on the group or an ancestor. */
  level: number;
  /** canReadGroup(). */
  readable: boolean;
}

/** The group rule (policy-internal: callers outside policy/ use `can()` of can.ts). */
export function groupCan(user: UserRow | null, facts: GroupFacts, ability: GroupAbility): boolean {
  if (ability === 'read_group') return facts.readable;
  // Refused to admins too (GitLab's prevents): asked before their blanket yes.
  if (ability === 'request_access') return canRequestGroupAccess(user, facts.group, facts.level);
  if (isAdmin(user)) return true;
  if (!user || user.state === 'blocked') return false;
  switch (ability) {
    case 'read_group_members':
      return facts.readable;
    case 'admin_list': // a group board's lists: reporters of the group or an ancestor
      return facts.level >= REPORTER;
    case 'create_projects':
    case 'admin_build': // GroupPolicy: masters manage the group's CI variables
      return facts.level >= MASTER;
    case 'admin_group':
    case 'admin_group_member':
    case 'create_subgroup':
      return facts.level >= OWNER;
  }
}

/** Loads the facts of `groupCan`: the level, then readability (a query more only when the level does not settle it). */
export async function groupFacts(db: Conn, user: UserRow | null, group: NamespaceRow): Promise<GroupFacts> {
  const level = await groupLevel(db, user, group);
  return { group, level, readable: await canReadGroup(db, user, group, level) };
}

/** One group ability, loading only what it needs (callers that hold GroupFacts use `can()`). */
async function canOnGroup(db: Conn, user: UserRow | null, group: NamespaceRow, ability: GroupAbility): Promise<boolean> {
  if (isAdmin(user)) return true;
  if (!user || user.state === 'blocked') return false;
  if (ability === 'read_group' || ability === 'read_group_members') return canReadGroup(db, user, group);
  return groupCan(user, { group, level: await groupLevel(db, user, group), readable: true }, ability);
}

/** May the user create a project in this namespace? Their own, or a group where they are master+. */
export async function canCreateProjectIn(db: Conn, user: UserRow, namespace: NamespaceRow): Promise<boolean> {
  if (namespace.kind === 'user') return namespace.owner_id === user.id || isAdmin(user);
  return canOnGroup(db, user, namespace, 'create_projects');
}
