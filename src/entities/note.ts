// GitLab 10.8's Note entity, in its key order. Notes here are never diff notes, so `type` and
// `attachment` are null, there is no `position`, and none is resolvable (no `resolved` keys).
// A deleted author shows as GitLab's Ghost User, as on issues.
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import type { NoteRow } from '../services/notes.js';
import { ghostUser, userBasic } from './user.js';

export function noteEntity(note: NoteRow, noteableIid: number, users: Map<number, UserRow>, urls: Urls) {
  const author = note.author_id === null ? undefined : users.get(note.author_id);
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: author ? userBasic(author, urls) : ghostUser(urls),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: !!note.system,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    resolvable: false,
    noteable_iid: noteableIid,
  };
}
