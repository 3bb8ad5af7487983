// Member: the user's UserBasic fields with the membership's access level and expiry date.
import type { Deps } from '../deps.js';
import type { Conn } from '../store/db.js';
import type { MemberRow, UserRow } from '../store/rows.js';
import { userBasic } from './user.js';

export function memberEntity(deps: Deps, member: MemberRow, user: UserRow) {
  return {
    ...userBasic(user, deps.urls),
    access_level: member.access_level,
    expires_at: member.expires_at,
  };
}

/** Renders members in order, loading their users in one query. */
export async function presentMembers(deps: Deps, members: MemberRow[], db: Conn = deps.db) {
  const ids = [...new Set(members.map((m) => m.user_id))];
  const users: UserRow[] = ids.length ? await db('users').whereIn('id', ids) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return members.filter((m) => byId.has(m.user_id)).map((m) => memberEntity(deps, m, byId.get(m.user_id)!));
}

export async function presentMember(deps: Deps, member: MemberRow) {
  const [one] = await presentMembers(deps, [member]);
  return one;
}
