// GitLab 10.8's CommitNote entity: the comment's text, where it sits in the commit's diff
// (path, the line's new-side number, its kind 'new'/'old', or null for an unchanged line;
// all null for a comment on the whole commit), its author and creation time.
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import type { NoteRow } from '../store/issuable_rows.js';
import { ghostUser, userBasic } from './user.js';

interface Placement {
  path: string | null;
  line: number | null;
  line_type: string | null;
}

function placement(note: NoteRow): Placement {
  const none = { path: null, line: null, line_type: null };
  if (!note.position) return none;
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(note.position) as Record<string, unknown>;
  } catch {
    return none;
  }
  if (note.type === 'LegacyDiffNote') {
    return { path: (stored.file_path as string) ?? null, line: (stored.new_line as number) ?? null, line_type: (stored.line_type as string) ?? null };
  }
  if (note.type === 'DiffNote') {
    const oldLine = (stored.old_line as number | null) ?? null;
    const newLine = (stored.new_line as number | null) ?? null;
    const lineType = oldLine !== null && newLine !== null ? null : newLine !== null ? 'new' : oldLine !== null ? 'old' : null;
    return { path: ((stored.new_path || stored.old_path) as string) ?? null, line: newLine, line_type: lineType };
  }
  return none;
}

export function commitNoteEntity(note: NoteRow, users: Map<number, UserRow>, urls: Urls) {
  const author = note.author_id === null ? undefined : users.get(note.author_id);
  return {
    note: note.body,
    ...placement(note),
    author: author ? userBasic(author, urls) : ghostUser(urls),
    created_at: note.created_at,
  };
}
