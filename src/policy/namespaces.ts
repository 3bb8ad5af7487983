// Who may see which namespace (GitLab's NamespacePolicy and the group rule behind it): a
// personal namespace its owner, a group its members (directly or through an ancestor group);
// admins everything. Being able to see a public group is not enough to read it as a namespace.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { NO_ACCESS, OWNER } from './levels.js';
import { groupLevel } from './groups.js';
import { isAdmin as admin } from './users.js';

export async function canReadNamespace(db: Conn, user: UserRow, ns: NamespaceRow): Promise<boolean> {
  if (admin(user)) return true;
  if (ns.kind === 'user') return ns.owner_id === user.id;
  return (await groupLevel(db, user, ns)) > NO_ACCESS;
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
      .orWhereIn(
        `${alias}.id`,
        db('members').select('source_id').where({ source_type: 'group', user_id: user.id }).whereNull('requested_at'),
      ),
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
