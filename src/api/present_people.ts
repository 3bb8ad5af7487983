// Rendering what carries a user (notes, award emoji, members): the page's users are loaded in
// one query by the finder, then the entities render.
import type { Deps } from '../deps.js';
import type { Conn } from '../store/db.js';
import type { Urls } from '../http/urls.js';
import type { MemberRow } from '../store/rows.js';
import type { AwardRow, NoteRow } from '../store/issuable_rows.js';
import { usersById } from '../finders/users.js';
import { noteEntity } from '../entities/note.js';
import { awardEmojiEntity } from '../entities/award_emoji.js';
import { memberEntity } from '../entities/member.js';

/** Notes of one noteable, with their authors (and resolvers) loaded in one query. */
export async function presentNotes(db: Conn, urls: Urls, notes: NoteRow[], noteableIid: number | null) {
  const users = await usersById(
    db,
    notes.flatMap((n) => [n.author_id, n.resolved_by_id ?? null]),
  );
  return notes.map((n) => noteEntity(n, noteableIid, users, urls));
}

export async function presentAwards(db: Conn, urls: Urls, awards: AwardRow[]) {
  const users = await usersById(
    db,
    awards.map((a) => a.user_id),
  );
  return awards.map((a) => awardEmojiEntity(a, users, urls));
}

/** Members in order; a membership whose user is gone is left out. */
export async function presentMembers(deps: Deps, members: MemberRow[], db: Conn = deps.db) {
  const users = await usersById(
    db,
    members.map((m) => m.user_id),
  );
  return members.filter((m) => users.has(m.user_id)).map((m) => memberEntity(deps.urls, m, users.get(m.user_id)!));
}

export async function presentMember(deps: Deps, member: MemberRow) {
  const [one] = await presentMembers(deps, [member]);
  return one;
}
