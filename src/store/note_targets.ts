// Which noteable a note hangs off, and the `notes` columns that name it: an issue or a merge
// request by its row id, a commit by the project and its sha (a commit has no row; its notes
// store noteable_id 0 and the sha in commit_id, where GitLab keeps noteable_id empty). Shared
// by the notes service that writes notes and the finders that read them back.
import type { NoteableType, NoteRow } from './issuable_rows.js';
import type { AnyNoteableType } from './note_kinds.js';

/** The noteable a note belongs to; a commit is named by `commitId` (its `id` is 0). */
export interface NoteTarget<T extends AnyNoteableType = NoteableType> {
  type: T;
  id: number;
  projectId: number;
  commitId?: string;
}

/** The columns naming the noteable in `notes` (a commit's notes by project and commit id). */
export function noteableWhere(target: NoteTarget<AnyNoteableType>): Record<string, string | number> {
  if (target.commitId !== undefined) return { project_id: target.projectId, noteable_type: target.type, commit_id: target.commitId };
  return { noteable_type: target.type, noteable_id: target.id };
}

/** A thread: its id, whether it is a plain comment (an individual note), its notes oldest first. */
export interface Discussion {
  id: string;
  individualNote: boolean;
  notes: NoteRow[];
}
