// Looking users up (by id or username) and listing them with GitLab's UsersFinder filters.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { orFuzzyMatch, squish } from './fuzzy.js';
import { containsPattern } from './projects.js';
import { storableId, storableText } from '../store/stored_values.js';
import type { IdentityView } from '../store/extras.js';

/** Digits are an id; anything else a username (case-insensitive). */
export async function findUserByIdOrUsername(db: Conn, idOrUsername: string): Promise<UserRow | undefined> {
  if (/^\d+$/.test(idOrUsername)) return findUserById(db, idOrUsername);
  return findUserByUsername(db, idOrUsername);
}

export async function findUserByUsername(db: Conn, username: string): Promise<UserRow | undefined> {
  if (!storableText(username)) return undefined;
  return db('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
}

/** By id given as digits; ids too large to be one are simply not found. */
export async function findUserById(db: Conn, id: string | number): Promise<UserRow | undefined> {
  const n = storableId(id);
  if (n === null) return undefined;
  return db('users').where({ id: n }).first();
}

export const USER_ORDERS = ['id', 'name', 'username', 'created_at', 'updated_at'] as const;
export type UserOrder = (typeof USER_ORDERS)[number];

export interface UserFilters {
  /** Exact, case-sensitive match (UsersFinder's `where(username:)`). */
  username?: string;
  search?: string;
  active?: boolean;
  blocked?: boolean;
  /** Only external users (admins); non-admins never see external users at all. */
  external?: boolean;
  hideExternal?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  /** Nobody has two-factor authentication in Wharf: `enabled` finds no one. */
  twoFactor?: string;
  /** `extern_uid` + `provider` (admins): the user holding that identity (extern_uid without case). */
  externalIdentity?: { provider: string; externUid: string };
  customAttributes?: Record<string, string>;
  /** Explicit order (admins); otherwise id descending, or search relevance when searching. */
  order?: { by: UserOrder; sort: 'asc' | 'desc' };
}

/** One query for GET /users, ready for pagination. */
export function usersQuery(db: Conn, f: UserFilters): Knex.QueryBuilder {
  const q = db('users').select('users.*');
  if (f.username !== undefined) {
    // lower() first so the index on lower(username) serves the exact comparison.
    q.whereRaw('lower(users.username) = ?', [f.username.toLowerCase()]).where('users.username', f.username);
  }
  const search = f.search !== undefined && squish(f.search) !== '' ? f.search.toLowerCase() : undefined;
  if (search !== undefined) {
    q.where((w) => {
      orFuzzyMatch(w, 'users.name', search);
      orFuzzyMatch(w, 'users.username', search);
      if (storableText(search)) w.orWhereRaw('lower(users.email) = ?', [search]); // else no e-mail is equal
    });
  }
  if (f.blocked) q.where('users.state', 'blocked');
  if (f.active) q.where('users.state', 'active');
  if (f.externalIdentity) {
    const { provider, externUid } = f.externalIdentity;
    q.whereIn('users.id', db('identities').where('provider', provider).whereRaw('lower(extern_uid) = ?', [externUid.toLowerCase()]).select('user_id'));
  }
  if (f.hideExternal) q.where('users.external', false);
  else if (f.external) q.where('users.external', true);
  if (f.twoFactor === 'enabled') q.whereRaw('1 = 0');
  if (f.createdBefore) q.where('users.created_at', '<=', f.createdBefore);
  if (f.createdAfter) q.where('users.created_at', '>=', f.createdAfter);
  for (const [key, value] of Object.entries(f.customAttributes ?? {})) {
    q.whereExists(db('custom_attributes').select(db.raw('1')).where({ subject_type: 'user', key, value }).whereRaw('custom_attributes.subject_id = users.id'));
  }

  if (f.order) {
    const { by, sort } = f.order;
    return q.orderBy([{ column: `users.${by}`, order: sort }, ...(by === 'id' ? [] : [{ column: 'users.id', order: sort }])]);
  }
  if (search !== undefined) {
    // User.search: exact name, then username, then email matches first; then by name.
    q.orderByRaw('CASE WHEN users.name = ? THEN 0 WHEN users.username = ? THEN 1 WHEN users.email = ? THEN 2 ELSE 3 END', [search, search, search]);
    return q.orderBy([{ column: 'users.name' }, { column: 'users.id', order: 'desc' }]);
  }
  return q.orderBy('users.id', 'desc');
}

/** Number of projects in each user's personal namespace (for `can_create_project`). */
export async function personalProjectCounts(db: Conn, userIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!userIds.length) return out;
  const rows: { owner_id: number; n: number | string }[] = await db('projects as p')
    .join('namespaces as n', 'n.id', 'p.namespace_id')
    .where('n.kind', 'user')
    .whereIn('n.owner_id', userIds)
    .groupBy('n.owner_id')
    .select('n.owner_id', db.raw('count(p.id) as n'));
  for (const r of rows) out.set(r.owner_id, Number(r.n));
  return out;
}

export type { IdentityView };

/** Each user's external identities (UserPublic's `identities`), in the order they were added. */
export async function userIdentities(db: Conn, userIds: number[]): Promise<Map<number, IdentityView[]>> {
  const out = new Map<number, IdentityView[]>();
  if (!userIds.length) return out;
  const rows: { user_id: number; provider: string; extern_uid: string | null }[] = await db('identities')
    .whereIn('user_id', userIds)
    .orderBy('id')
    .select('user_id', 'provider', 'extern_uid');
  for (const r of rows) {
    const list = out.get(r.user_id) ?? [];
    list.push({ provider: r.provider, extern_uid: r.extern_uid });
    out.set(r.user_id, list);
  }
  return out;
}

/** Each user's custom attributes, ordered by key. */
export async function userCustomAttributes(db: Conn, userIds: number[]): Promise<Map<number, { key: string; value: string }[]>> {
  const out = new Map<number, { key: string; value: string }[]>();
  if (!userIds.length) return out;
  const rows: { subject_id: number; key: string; value: string }[] = await db('custom_attributes')
    .where('subject_type', 'user')
    .whereIn('subject_id', userIds)
    .orderBy(['subject_id', 'key'])
    .select('subject_id', 'key', 'value');
  for (const r of rows) {
    const list = out.get(r.subject_id) ?? [];
    list.push({ key: r.key, value: r.value });
    out.set(r.subject_id, list);
  }
  return out;
}

/** The users of these ids, by id (one query). */
export async function usersById(db: Conn, ids: (number | null)[]): Promise<Map<number, UserRow>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const rows: UserRow[] = wanted.length ? await db('users').whereIn('id', wanted) : [];
  return new Map(rows.map((u) => [u.id, u]));
}

/**
 * The users who are members of the project or of its group's ancestry (not of the groups it
 * is shared with; requests excluded), by id, optionally searched in name, username or e-mail.
 */
export function projectUsersQuery(db: Conn, project: { id: number; namespace_id: number }, search?: string | null): Knex.QueryBuilder {
  const members = db('members')
    .select('user_id')
    .where({ source_type: 'project', source_id: project.id })
    .whereNull('requested_at')
    .union(
      db('members as m')
        .select('m.user_id')
        .join('namespace_ancestors as a', 'a.ancestor_id', 'm.source_id')
        .where({ 'm.source_type': 'group', 'a.namespace_id': project.namespace_id })
        .whereNull('m.requested_at'),
    );
  const query = db('users').whereIn('id', members).orderBy('id', 'asc');
  if (search && !storableText(search)) {
    query.whereRaw('1 = 0'); // no name or e-mail holds a NUL (fuzzy.ts)
  } else if (search) {
    const pattern = containsPattern(search);
    query.where((w) =>
      w.whereRaw("lower(name) LIKE ? ESCAPE '\\'", [pattern]).orWhereRaw("lower(username) LIKE ? ESCAPE '\\'", [pattern]).orWhereRaw("lower(email) LIKE ? ESCAPE '\\'", [pattern]),
    );
  }
  return query;
}
