// Comments on issues, merge requests and commits (GitLab 10.8's Notes::CreateService,
// UpdateService, DestroyService and the Note model's callbacks). Each change runs in one
// transaction with what GitLab does alongside it: the noteable's `user_notes_count`
// (non-system notes), the `commented` event, the todo hooks, and the noteable's throttled
// touch (its updated_at moves on a saved note unless it moved within the last minute); a
// commit has no row to count or touch, nor to-dos. Every note belongs to a discussion
// (`discussion_id`: a new one, or the thread it replies to; store/note_kinds.ts says what a
// row's `type` makes it). Quick actions in bodies are not interpreted. The caller has checked
// the permissions.
import type { Conn, Tx } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { newDiscussionId, type AnyNoteableType, type NoteType } from '../../store/note_kinds.js';
import { announce } from '../notify.js';
import type { IssuableRef } from '../domain_events.js';
import type { NoteRow } from '../../store/issuable_rows.js';
import type { NoteTarget } from '../../store/note_targets.js';

export { type NoteTarget };

/** What makes a new note more than a plain comment. */
export interface NoteKind {
  type?: NoteType | null;
  /** The thread it replies to; a new one otherwise. */
  discussionId?: string;
  position?: string | null;
  lineCode?: string | null;
}

const TOUCH_INTERVAL_MS = 60_000;

/** The table of a noteable with a row (issues, merge requests), else null (a commit). */
function tableOf(type: AnyNoteableType): 'issues' | 'merge_requests' | null {
  return type === 'Issue' ? 'issues' : type === 'MergeRequest' ? 'merge_requests' : null;
}

/** GitLab's ThrottledTouch: the noteable's updated_at moves unless it did within the last minute. */
async function touchNoteable(tx: Tx, target: NoteTarget<AnyNoteableType>): Promise<void> {
  const table = tableOf(target.type);
  if (!table) return;
  const stamp = now();
  const threshold = new Date(Date.parse(stamp) - TOUCH_INTERVAL_MS).toISOString();
  await tx(table).where('id', target.id).where('updated_at', '<', threshold).update({ updated_at: stamp });
}

/** The noteable as an issuable, when it is one (issues and merge requests have to-dos). */
function issuableOf(target: NoteTarget<AnyNoteableType>): IssuableRef | null {
  if (target.type !== 'Issue' && target.type !== 'MergeRequest') return null;
  return { type: target.type, id: target.id, projectId: target.projectId };
}

/** The row columns of a new note of `target`. */
function newNoteRow(target: NoteTarget<AnyNoteableType>, authorId: number, body: string, system: boolean, kind: NoteKind, createdAt: string, updatedAt: string) {
  return {
    project_id: target.projectId,
    noteable_type: target.type,
    noteable_id: target.id,
    commit_id: target.commitId ?? null,
    author_id: authorId,
    body,
    system,
    updated_by_id: null,
    type: kind.type ?? null,
    discussion_id: kind.discussionId ?? newDiscussionId(target.type, target.commitId ?? target.id),
    position: kind.position ?? null,
    line_code: kind.lineCode ?? null,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

/** Model validation of a body: Rails' presence (whitespace only is blank). */
export function blankBody(body: string): boolean {
  return body.trim() === '';
}

/** A user's comment; `createdAt` only when the caller allowed it. */
export async function createNote(db: Conn, target: NoteTarget<AnyNoteableType>, author: UserRow, input: { body: string; createdAt?: string } & NoteKind): Promise<NoteRow> {
  return db.transaction(async (tx) => {
    const stamp = now();
    const id = await insertReturningId(tx, 'notes', newNoteRow(target, author.id, input.body, false, input, input.createdAt ?? stamp, stamp));
    const table = tableOf(target.type);
    if (table) await tx(table).where('id', target.id).increment('user_notes_count', 1);
    await touchNoteable(tx, target);
    await announce(tx, { name: 'noteAdded', noteId: id, projectId: target.projectId, actor: author, body: input.body, onIssuable: issuableOf(target) });
    return (await tx('notes').where({ id }).first()) as NoteRow;
  });
}

/**
 * A system note (GitLab's SystemNoteService) inside the caller's transaction: no event, no
 * todo, no count, and no touch (GitLab writes them with touching disabled). `kind` places it
 * in a discussion (a reply's type and thread).
 */
export async function createSystemNote(tx: Tx, target: NoteTarget<AnyNoteableType>, author: UserRow, body: string, kind: NoteKind = {}): Promise<void> {
  const stamp = now();
  await tx('notes').insert(newNoteRow(target, author.id, body, true, kind, stamp, stamp));
}

/** A new body; updated_at moves only when something changed (body or editor). */
export async function updateNote(db: Conn, target: NoteTarget<AnyNoteableType>, note: NoteRow, editor: UserRow, body: string): Promise<NoteRow> {
  return db.transaction(async (tx) => {
    const bodyChanged = body !== note.body;
    if (bodyChanged || note.updated_by_id !== editor.id) {
      await tx('notes').where({ id: note.id }).update({ body, updated_by_id: editor.id, updated_at: now() });
    }
    await touchNoteable(tx, target);
    if (bodyChanged) await announce(tx, { name: 'noteEdited', noteId: note.id, actor: editor, body, oldBody: note.body, onIssuable: issuableOf(target) });
    return (await tx('notes').where({ id: note.id }).first()) as NoteRow;
  });
}

/** Deletes the note with its award emoji, its events and its todos; the count follows. */
export async function deleteNote(db: Conn, target: NoteTarget<AnyNoteableType>, note: NoteRow): Promise<void> {
  await db.transaction(async (tx) => {
    await removeNotes(tx, [note.id]);
    const table = tableOf(target.type);
    if (!note.system && table) {
      await tx(table).where('id', target.id).where('user_notes_count', '>', 0).decrement('user_notes_count', 1);
    }
  });
}

async function removeNotes(tx: Tx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await tx('award_emoji').where('awardable_type', 'Note').whereIn('awardable_id', ids).delete();
  await tx('events').where('target_type', 'Note').whereIn('target_id', ids).delete();
  await tx('todos').whereIn('note_id', ids).delete();
  await tx('notes').whereIn('id', ids).delete();
}
