// Commenting on a commit (GitLab 10.8's POST .../repository/commits/:sha/comments): a note on
// the commit, placed on a line when `path`, `line` and `line_type` name one of its diff — a
// line of that file's patch against the first parent whose new-side number is `line` and
// whose kind is `line_type` ('new' added, 'old' removed, as 10.8 matched them) — and then a
// LegacyDiffNote with the line's code; otherwise a plain comment, as 10.8 silently made one.
// The line is kept with the note (path, its new-side number, its kind) for the CommitNote
// entity. The caller has checked the permissions.
import type { Conn } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { commitChanges, patchFor } from '../../git/diff.js';
import { lineCode, newLineOf, patchLines } from '../../git/patch_lines.js';
import { createNote, type NoteTarget } from './notes.js';
import type { NoteRow } from '../../store/issuable_rows.js';

export interface CommentLine {
  path: string;
  line: number;
  lineType: 'new' | 'old';
}

/** The placed line: its code and what the CommitNote entity shows; null when it is no line of the diff. */
async function placeLine(gitdir: string, commit: string, want: CommentLine): Promise<{ lineCode: string; stored: string } | null> {
  const change = (await commitChanges(gitdir, commit)).find((c) => c.newPath === want.path);
  if (!change) return null;
  const patch = await patchFor(gitdir, change);
  const line = patchLines(patch.diff).find((l) => l.newPos === want.line && l.type === want.lineType);
  if (!line) return null;
  const stored = JSON.stringify({ file_path: patch.new_path, new_line: newLineOf(line), line_type: line.type });
  return { lineCode: lineCode(patch.new_path, line), stored };
}

export async function createCommitComment(db: Conn, gitdir: string, target: NoteTarget<'Commit'>, author: UserRow, input: { note: string; line?: CommentLine }): Promise<NoteRow> {
  const placed = input.line ? await placeLine(gitdir, target.commitId!, input.line) : null;
  const kind = placed ? { type: 'LegacyDiffNote' as const, lineCode: placed.lineCode, position: placed.stored } : {};
  return createNote(db, target, author, { body: input.note, ...kind });
}
