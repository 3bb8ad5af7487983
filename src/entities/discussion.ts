// GitLab 10.8's Discussion entity: the thread's id, whether it is an individual note (a plain
// comment), and its notes (Note entities, oldest first).
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import type { Discussion } from '../store/note_targets.js';
import { noteEntity } from './note.js';

/** The users a page of discussions shows (authors and resolvers), for one batch load. */
export function discussionUserIds(discussions: Discussion[]): (number | null)[] {
  return discussions.flatMap((d) => d.notes.flatMap((n) => [n.author_id, n.resolved_by_id ?? null]));
}

/** Renders discussions of one noteable; `users` holds every id of discussionUserIds. */
export function discussionEntities(discussions: Discussion[], users: Map<number, UserRow>, urls: Urls, noteableIid: number | null) {
  return discussions.map((d) => ({
    id: d.id,
    individual_note: d.individualNote,
    notes: d.notes.map((n) => noteEntity(n, noteableIid, users, urls)),
  }));
}
