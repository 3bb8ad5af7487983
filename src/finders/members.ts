// Memberships of a project or a group: one by user, and the searchable list.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { MemberRow } from '../store/rows.js';
import { orFuzzyMatch, squish } from './fuzzy.js';

export type SourceType = 'project' | 'group';

/** A membership (access requests are not memberships), or undefined. */
export async function findMember(db: Conn, sourceType: SourceType, sourceId: number, userId: number): Promise<MemberRow | undefined> {
  return db('members').where({ source_type: sourceType, source_id: sourceId, user_id: userId }).whereNull('requested_at').first();
}

/**
 * The direct members of a source, by membership id; with `query`, only those whose name or
 * username matches it (GitLab's user search) or whose email equals it, best matches first.
 */
export function membersQuery(db: Conn, sourceType: SourceType, sourceId: number, query?: string): Knex.QueryBuilder {
  const q = db('members')
    .select('members.*')
    .join('users', 'users.id', 'members.user_id')
    .where({ 'members.source_type': sourceType, 'members.source_id': sourceId })
    .whereNull('members.requested_at');
  if (!query || squish(query) === '') return q.orderBy('members.id', 'asc');
  const term = query.toLowerCase();
  q.where((w) => {
    orFuzzyMatch(w, 'users.name', term);
    orFuzzyMatch(w, 'users.username', term);
    w.orWhere('users.email', term);
  });
  return q
    .orderByRaw('CASE WHEN users.name = ? THEN 0 WHEN users.username = ? THEN 1 WHEN users.email = ? THEN 2 ELSE 3 END', [term, term, term])
    .orderBy([{ column: 'users.name' }, { column: 'members.id' }]);
}
