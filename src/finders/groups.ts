// Looking groups up by id or full path, and the filtered, ordered group lists.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { whereListedGroups } from '../policy/groups.js';
import { orFuzzyMatch } from './fuzzy.js';
import { storableId, storableText } from '../store/stored_values.js';

/** Digits are an id; anything else a URL-decoded full path, case-insensitive. */
export async function findGroupByIdOrPath(db: Conn, idOrPath: string): Promise<NamespaceRow | undefined> {
  if (!storableText(idOrPath)) return undefined;
  const q = db('namespaces').where({ kind: 'group' });
  if (/^\d+$/.test(idOrPath)) {
    const id = storableId(idOrPath);
    return id === null ? undefined : q.where({ id }).first();
  }
  return q.whereRaw('lower(full_path) = ?', [idOrPath.toLowerCase()]).first();
}

/** Ids of the group and every group below it. */
export function subtreeIds(db: Conn, groupId: number): Knex.QueryBuilder {
  return db('namespace_ancestors').select('namespace_id').where('ancestor_id', groupId);
}

export interface GroupFilters {
  allAvailable: boolean;
  owned: boolean;
  /** Only the direct children of this group (GET /groups/:id/subgroups). */
  parent?: NamespaceRow;
  search?: string;
  skipGroups?: number[];
  orderBy: 'name' | 'path';
  sort: 'asc' | 'desc';
}

/** The groups listed to the user, filtered and ordered: one query, ready for pagination. */
export function groupsQuery(db: Conn, user: UserRow | null, f: GroupFilters): Knex.QueryBuilder {
  const q = db('namespaces').select('namespaces.*').where('namespaces.kind', 'group');
  whereListedGroups(q, db, user, { allAvailable: f.allAvailable, owned: f.owned });
  if (f.parent) q.where('namespaces.parent_id', f.parent.id);
  const search = f.search;
  if (search) {
    q.where((w) => {
      orFuzzyMatch(w, 'namespaces.name', search);
      orFuzzyMatch(w, 'namespaces.path', search);
    });
  }
  if (f.skipGroups?.length) q.whereNotIn('namespaces.id', f.skipGroups);
  // id breaks ties so that pages never overlap.
  return q.orderBy([
    { column: `namespaces.${f.orderBy}`, order: f.sort },
    { column: 'namespaces.id', order: f.sort },
  ]);
}
