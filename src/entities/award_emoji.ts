// GitLab 10.8's AwardEmoji entity, in its key order. Awards go with their user, so the user
// always exists.
import type { Conn } from '../store/db.js';
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import type { AwardRow } from '../store/issuable_rows.js';
import { ghostUser, userBasic } from './user.js';
import { usersById } from './note.js';

export function awardEmojiEntity(award: AwardRow, users: Map<number, UserRow>, urls: Urls) {
  const user = users.get(award.user_id);
  return {
    id: award.id,
    name: award.name,
    user: user ? userBasic(user, urls) : ghostUser(urls),
    created_at: award.created_at,
    updated_at: award.updated_at,
    awardable_id: award.awardable_id,
    awardable_type: award.awardable_type,
  };
}

export async function presentAwards(db: Conn, urls: Urls, awards: AwardRow[]) {
  const users = await usersById(db, awards.map((a) => a.user_id));
  return awards.map((a) => awardEmojiEntity(a, users, urls));
}
