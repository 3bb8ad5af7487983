// A noteable's notes as GitLab 10.8 builds its discussions (Discussion.build_collection over
// `notes.fresh`): every note of the noteable, oldest first, grouped by `discussion_id` in the
// order each thread began; a thread is an individual note when its first note is a plain
// comment. One query for the notes; the API pages the threads (Kaminari.paginate_array).
// Also the question merging asks: does a merge request still have a discussion to resolve?
import type { Conn } from '../store/db.js';
import type { AnyNoteableType } from '../store/note_kinds.js';
import { isIndividualNote, isResolvable } from '../store/note_kinds.js';
import type { NoteRow } from '../store/issuable_rows.js';
import { noteableWhere, type Discussion, type NoteTarget } from '../store/note_targets.js';

export type { Discussion };

/** Notes.fresh: by creation, then id. */
function fresh(db: Conn, target: NoteTarget<AnyNoteableType>) {
  return db('notes')
    .where(noteableWhere(target))
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
}

/** Groups notes (oldest first) into their discussions, in the order the discussions began. */
function groupDiscussions(notes: NoteRow[]): Discussion[] {
  const byId = new Map<string, Discussion>();
  for (const note of notes) {
    let d = byId.get(note.discussion_id);
    if (!d) {
      d = { id: note.discussion_id, individualNote: isIndividualNote(note), notes: [] };
      byId.set(note.discussion_id, d);
    }
    d.notes.push(note);
  }
  return [...byId.values()];
}

/** Every discussion of the noteable. */
export async function discussionsOf(db: Conn, target: NoteTarget<AnyNoteableType>): Promise<Discussion[]> {
  return groupDiscussions(await fresh(db, target));
}

/** One discussion of the noteable; null when it has no note there. */
export async function findDiscussion(db: Conn, target: NoteTarget<AnyNoteableType>, discussionId: string): Promise<Discussion | null> {
  const notes: NoteRow[] = await fresh(db, target).where({ discussion_id: discussionId });
  return notes.length ? groupDiscussions(notes)[0] : null;
}

/** ResolvableDiscussion#resolvable?: some note of it can be resolved. */
export function discussionResolvable(d: Discussion): boolean {
  return d.notes.some(isResolvable);
}

/** ResolvableDiscussion#resolved?: resolvable, and no resolvable note is left unresolved. */
export function discussionResolved(d: Discussion): boolean {
  return discussionResolvable(d) && d.notes.every((n) => !isResolvable(n) || n.resolved_at !== null);
}

/**
 * Noteable#discussions_to_be_resolved?: a resolvable note of the merge request is unresolved
 * (one indexed query, no note loaded).
 */
export async function hasUnresolvedDiscussions(db: Conn, mergeRequestId: number): Promise<boolean> {
  const row = await db('notes')
    .where({ noteable_type: 'MergeRequest', noteable_id: mergeRequestId })
    .whereIn('type', ['DiffNote', 'DiscussionNote'])
    .where('system', false)
    .whereNull('resolved_at')
    .first('id');
  return !!row;
}

/** The discussions of the merge request still to be resolved (Noteable#discussions_to_be_resolved). */
export async function discussionsToBeResolved(db: Conn, mergeRequestId: number): Promise<Discussion[]> {
  const all = await discussionsOf(db, { type: 'MergeRequest', id: mergeRequestId, projectId: 0 });
  return all.filter((d) => discussionResolvable(d) && !discussionResolved(d));
}
