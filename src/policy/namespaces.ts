// Who may see which namespace (GitLab's NamespacePolicy and the group rule behind it): a
// personal namespace its owner, a group its members (directly or through an ancestor group);
// admins everything. Being able to see a public group is not enough to read it as a namespace.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { NO_ACCESS, OWNER } from './levels.js';
import { groupCan, groupLevel } from './groups.js';
import { isAdmin as admin } from './users.js';

/** GitLab 10.8's NamespacePolicy abilities (a group namespace answers create_projects with its GroupPolicy). */
export type NamespaceAbility = 'read_namespace' | 'create_projects' | 'admin_namespace';

/** What a namespace decision needs: the namespace and, for a group, the user's level on it. */
export interface NamespaceFacts {
  namespace: NamespaceRow;
  /** groupLevel() for a group; NO_ACCESS for a personal namespace. */
  level: number;
}

export async function namespaceFacts(db: Conn, user: UserRow | null, namespace: NamespaceRow): Promise<NamespaceFacts> {
  return { namespace, level: namespace.kind === 'group' ? await groupLevel(db, user, namespace) : NO_ACCESS };
}

/**
 * The namespace rules (policy-internal: callers use `can()`):
 * - read_namespace: NamespacePolicy's owner or admin for a personal namespace; GroupPolicy's
 *   `has_access` (any membership, here or on an ancestor) for a group;
 * - create_projects: a personal namespace is its owner's (and admins'); a group answers as
 *   GroupPolicy does;
 * - admin_namespace: a personal namespace's owner, a group's owners (directly or through an
 *   ancestor), and admins (what an overwriting import asks).
 */
export function namespaceCan(user: UserRow | null, facts: NamespaceFacts, ability: NamespaceAbility): boolean {
  const ns = facts.namespace;
  if (ability === 'create_projects') {
    if (ns.kind === 'group') return groupCan(user, { group: ns, level: facts.level, readable: true }, ability);
    if (admin(user)) return true;
    return !!user && user.state !== 'blocked' && ns.owner_id === user.id;
  }
  if (!user) return false;
  if (admin(user)) return true;
  if (ns.kind === 'user') return ns.owner_id === user.id;
  if (ability === 'admin_namespace') return user.state !== 'blocked' && facts.level >= OWNER;
  return facts.level > NO_ACCESS;
}

/**
 * GET /namespaces: admins list every namespace; others their own and the groups they are a
 * direct member of (GitLab's `user.namespaces`; subgroups reached through a parent are not listed).
 */
export function whereListedNamespaces(q: Knex.QueryBuilder, db: Conn, user: UserRow, alias = 'namespaces'): Knex.QueryBuilder {
  if (admin(user)) return q;
  return q.where((w) =>
    w
      .where({ [`${alias}.kind`]: 'user', [`${alias}.owner_id`]: user.id })
      .orWhereIn(`${alias}.id`, db('members').select('source_id').where({ source_type: 'group', user_id: user.id }).whereNull('requested_at')),
  );
}

/** Of these groups, those the user may administer (owner here or on an ancestor; admins all). */
export async function administeredGroupIds(db: Conn, user: UserRow, groupIds: number[]): Promise<Set<number>> {
  if (admin(user) || !groupIds.length) return new Set(admin(user) ? groupIds : []);
  const rows: { namespace_id: number }[] = await db('namespace_ancestors as a')
    .distinct('a.namespace_id')
    .join('members as m', function () {
      this.on('m.source_id', '=', 'a.ancestor_id').andOnVal('m.source_type', '=', 'group');
    })
    .whereIn('a.namespace_id', groupIds)
    .where('m.user_id', user.id)
    .where('m.access_level', '>=', OWNER)
    .whereNull('m.requested_at');
  return new Set(rows.map((r) => r.namespace_id));
}
