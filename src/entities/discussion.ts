// GitLab 10.8's Discussion entity: the thread's id, whether it is an individual note (a plain
// comment), and its notes (Note entities, oldest first).
import type { Conn } from '../store/db.js';
import type { Urls } from '../http/urls.js';
import type { Discussion } from '../finders/discussions.js';
import { noteEntity, usersById } from './note.js';

/** Renders discussions of one noteable, every author and resolver loaded in one query. */
export async function presentDiscussions(db: Conn, urls: Urls, discussions: Discussion[], noteableIid: number | null) {
  const users = await usersById(db, discussions.flatMap((d) => d.notes.flatMap((n) => [n.author_id, n.resolved_by_id ?? null])));
  return discussions.map((d) => ({
    id: d.id,
    individual_note: d.individualNote,
    notes: d.notes.map((n) => noteEntity(n, noteableIid, users, urls)),
  }));
}
