// GitLab 10.8's Note entity, in its key order: a DiffNote adds its `position` (Position#to_h)
// after `noteable_type`; a resolvable note (store/note_kinds.ts) adds `resolved` and
// `resolved_by` after `resolvable`. `noteable_iid` is the or merge request's iid
// (null on a commit, whose `noteable_id` is null too). `attachment` is always null (no
// uploads). A deleted author shows as GitLab's Ghost User, as on issues.
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import type { NoteRow } from '../store/issuable_rows.js';
import { isResolvable } from '../store/note_kinds.js';
import { ghostUser, userBasic } from './user.js';

/** A stored DiffNote position as GitLab shows it; null when the row holds none. */
function positionOf(note: Pick<NoteRow, 'type' | 'position'>): Record<string, unknown> | null {
  if (note.type !== 'DiffNote' || !note.position) return null;
  try {
    return JSON.parse(note.position) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function noteEntity(note: NoteRow, noteableIid: number | null, users: Map<number, UserRow>, urls: Urls) {
  const author = note.author_id === null ? undefined : users.get(note.author_id);
  const position = positionOf(note);
  const resolvable = isResolvable(note);
  const resolver = note.resolved_by_id === null ? undefined : users.get(note.resolved_by_id);
  return {
    id: note.id,
    type: note.type ?? null,
    body: note.body,
    attachment: null,
    author: author ? userBasic(author, urls) : ghostUser(urls),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: !!note.system,
    noteable_id: note.noteable_type === 'Commit' ? null : note.noteable_id,
    noteable_type: note.noteable_type,
    ...(position ? { position } : {}),
    resolvable,
    ...(resolvable ? { resolved: note.resolved_at !== null, resolved_by: resolver ? userBasic(resolver, urls) : null } : {}),
    noteable_iid: note.noteable_type === 'Commit' ? null : noteableIid,
  };
}
