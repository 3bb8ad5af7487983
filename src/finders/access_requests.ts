// Pending access requests of a project or a group (GitLab's `requesters`: member rows with
// `requested_at` set, which are no membership anywhere): the list, oldest first, and one by
// user.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { MemberRow, UserRow } from '../store/rows.js';
import type { SourceType } from './members.js';

export function requestersQuery(db: Conn, sourceType: SourceType, sourceId: number): Knex.QueryBuilder {
  return db('members').where({ source_type: sourceType, source_id: sourceId }).whereNotNull('requested_at').orderBy('id', 'asc');
}

/** The user's pending request to the source, or undefined (a membership is not one). */
export async function findRequester(db: Conn, sourceType: SourceType, sourceId: number, userId: number): Promise<MemberRow | undefined> {
  return requestersQuery(db, sourceType, sourceId).where({ user_id: userId }).first();
}

/** The users of these requests, by id (one query). */
export async function requestersUsers(db: Conn, requests: MemberRow[]): Promise<Map<number, UserRow>> {
  const ids = [...new Set(requests.map((m) => m.user_id))];
  const rows: UserRow[] = ids.length ? await db('users').whereIn('id', ids) : [];
  return new Map(rows.map((u) => [u.id, u]));
}
