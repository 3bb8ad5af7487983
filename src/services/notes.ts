// Comments on issues and merge requests (GitLab 10.8's Notes::CreateService, UpdateService,
// DestroyService and the Note model's callbacks). Each change runs in one transaction with
// what GitLab does alongside it: the noteable's `user_notes_count` (non-system notes), the
// `commented` event, the todo hooks, and the noteable's throttled touch (its updated_at moves
// on a saved note unless it moved within the last minute). Quick actions in bodies are not
// interpreted. The caller has checked the permissions.
import type { Knex } from 'knex';
import type { Conn, Tx } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { now } from '../store/time.js';
import { recordEvent } from './events.js';
import { enqueueNoteHooks } from './hook_triggers.js';
import { todosOnNote } from './todos.js';
import type { NoteableType, NoteRow } from '../store/issuable_rows.js';

/** The noteable a note belongs to. */
export interface NoteTarget {
  type: NoteableType;
  id: number;
  projectId: number;
}

export const NOTE_ORDERS = ['created_at', 'updated_at'] as const;

const TOUCH_INTERVAL_MS = 60_000;

function tableOf(type: NoteableType): 'issues' | 'merge_requests' {
  return type === 'Issue' ? 'issues' : 'merge_requests';
}

/** A note of this noteable, by id. */
export async function findNote(db: Conn, target: NoteTarget, noteId: number): Promise<NoteRow | undefined> {
  return db('notes').where({ id: noteId, noteable_type: target.type, noteable_id: target.id }).first();
}

/** The noteable's notes in the requested order (ties by id, in the same direction). */
export function notesQuery(db: Conn, target: NoteTarget, orderBy: (typeof NOTE_ORDERS)[number], sort: 'asc' | 'desc'): Knex.QueryBuilder {
  return db('notes').where({ noteable_type: target.type, noteable_id: target.id }).orderBy([
    { column: orderBy, order: sort },
    { column: 'id', order: sort },
  ]);
}

/** GitLab's ThrottledTouch: the noteable's updated_at moves unless it did within the last minute. */
async function touchNoteable(tx: Tx, target: NoteTarget): Promise<void> {
  const stamp = now();
  const threshold = new Date(Date.parse(stamp) - TOUCH_INTERVAL_MS).toISOString();
  await tx(tableOf(target.type)).where('id', target.id).where('updated_at', '<', threshold).update({ updated_at: stamp });
}

function todoTarget(target: NoteTarget) {
  return { type: target.type, id: target.id, projectId: target.projectId };
}

/** Model validation of a body: Rails' presence (whitespace only is blank). */
export function blankBody(body: string): boolean {
  return body.trim() === '';
}

/** A user's comment; `createdAt` only when the caller allowed it. */
export async function createNote(db: Conn, target: NoteTarget, author: UserRow, input: { body: string; createdAt?: string }): Promise<NoteRow> {
  return db.transaction(async (tx) => {
    const stamp = now();
    const [row] = await tx('notes')
      .insert({
        project_id: target.projectId,
        noteable_type: target.type,
        noteable_id: target.id,
        author_id: author.id,
        body: input.body,
        system: false,
        updated_by_id: null,
        created_at: input.createdAt ?? stamp,
        updated_at: stamp,
      })
      .returning('id');
    const id: number = typeof row === 'object' ? row.id : row;
    await tx(tableOf(target.type)).where('id', target.id).increment('user_notes_count', 1);
    await touchNoteable(tx, target);
    await recordEvent(tx, { projectId: target.projectId, authorId: author.id, action: 'commented', target: { type: 'Note', id } });
    await enqueueNoteHooks(tx, id, author.id); // webhooks (issue #20)
    await todosOnNote(tx, author, todoTarget(target), { id, body: input.body });
    return (await tx('notes').where({ id }).first()) as NoteRow;
  });
}

/**
 * A system note (GitLab's SystemNoteService) inside the caller's transaction: no event, no
 * todo, no count, and no touch (GitLab writes them with touching disabled).
 */
export async function createSystemNote(tx: Tx, target: NoteTarget, author: UserRow, body: string): Promise<void> {
  const stamp = now();
  await tx('notes').insert({
    project_id: target.projectId,
    noteable_type: target.type,
    noteable_id: target.id,
    author_id: author.id,
    body,
    system: true,
    updated_by_id: null,
    created_at: stamp,
    updated_at: stamp,
  });
}

/** A new body; updated_at moves only when something changed (body or editor). */
export async function updateNote(db: Conn, target: NoteTarget, note: NoteRow, editor: UserRow, body: string): Promise<NoteRow> {
  return db.transaction(async (tx) => {
    const bodyChanged = body !== note.body;
    if (bodyChanged || note.updated_by_id !== editor.id) {
      await tx('notes').where({ id: note.id }).update({ body, updated_by_id: editor.id, updated_at: now() });
    }
    await touchNoteable(tx, target);
    if (bodyChanged) await todosOnNote(tx, editor, todoTarget(target), { id: note.id, body, oldBody: note.body });
    return (await tx('notes').where({ id: note.id }).first()) as NoteRow;
  });
}

/** Deletes the note with its award emoji, its events and its todos; the count follows. */
export async function deleteNote(db: Conn, target: NoteTarget, note: NoteRow): Promise<void> {
  await db.transaction(async (tx) => {
    await removeNotes(tx, [note.id]);
    if (!note.system) {
      await tx(tableOf(target.type)).where('id', target.id).where('user_notes_count', '>', 0).decrement('user_notes_count', 1);
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

