// Finding namespaces (personal ones and groups): one by id or full path, the listed ones, and
// the member counts GET /namespaces shows to group owners.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { whereListedNamespaces } from '../policy/namespaces.js';
import { orFuzzyMatch, squish } from './fuzzy.js';
import { storableId, storableText } from '../store/stored_values.js';

/** Digits are an id; anything else a URL-decoded full path, case-insensitive. */
export async function findNamespaceByIdOrPath(db: Conn, idOrPath: string): Promise<NamespaceRow | undefined> {
  if (!storableText(idOrPath)) return undefined;
  if (/^\d+$/.test(idOrPath)) {
    const id = storableId(idOrPath);
    return id !== null ? db('namespaces').where({ id }).first() : undefined;
  }
  return db('namespaces').whereRaw('lower(full_path) = ?', [idOrPath.toLowerCase()]).first();
}

/** The user's personal namespace. */
export async function findPersonalNamespace(db: Conn, userId: number): Promise<NamespaceRow | undefined> {
  return db('namespaces').where({ kind: 'user', owner_id: userId }).first();
}

/** GET /namespaces: the user's namespaces, optionally searched by name or path; by id. */
export function namespacesQuery(db: Conn, user: UserRow, search?: string): Knex.QueryBuilder {
  const q = db('namespaces').select('namespaces.*');
  whereListedNamespaces(q, db, user);
  if (search !== undefined && squish(search) !== '') {
    q.where((w) => {
      orFuzzyMatch(w, 'namespaces.name', search);
      orFuzzyMatch(w, 'namespaces.path', search);
    });
  }
  return q.orderBy('namespaces.id', 'asc');
}

/**
 * Distinct active users who are members of each group or of any of its subgroups
 * (`members_count_with_descendants`); access requests do not count.
 */
export async function membersCountWithDescendants(db: Conn, groupIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(groupIds.map((id) => [id, 0]));
  if (!groupIds.length) return out;
  const rows: { group_id: number; n: number | string }[] = await db('namespace_ancestors as a')
    .join('members as m', function () {
      this.on('m.source_id', '=', 'a.namespace_id').andOnVal('m.source_type', '=', 'group');
    })
    .join('users as u', 'u.id', 'm.user_id')
    .whereIn('a.ancestor_id', groupIds)
    .whereNull('m.requested_at')
    .where('u.state', 'active')
    .groupBy('a.ancestor_id')
    .select('a.ancestor_id as group_id', db.raw('count(distinct m.user_id) as n'));
  for (const r of rows) out.set(r.group_id, Number(r.n));
  return out;
}
