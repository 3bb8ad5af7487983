// Reading a noteable's notes (GitLab 10.8's lib/api/notes.rb and discussions.rb lookups): one
// note of a noteable by id, and its notes in the order a list asks for.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { AnyNoteableType } from '../store/note_kinds.js';
import type { NoteRow } from '../store/issuable_rows.js';
import { noteableWhere, type NoteTarget } from '../store/note_targets.js';

export const NOTE_ORDERS = ['created_at', 'updated_at'] as const;

/** A note of this noteable, by id. */
export async function findNote(db: Conn, target: NoteTarget<AnyNoteableType>, noteId: number): Promise<NoteRow | undefined> {
  return db('notes')
    .where({ id: noteId, ...noteableWhere(target) })
    .first();
}

/** The noteable's notes in the requested order (ties by id, in the same direction). */
export function notesQuery(db: Conn, target: NoteTarget<AnyNoteableType>, orderBy: (typeof NOTE_ORDERS)[number], sort: 'asc' | 'desc'): Knex.QueryBuilder {
  return db('notes')
    .where(noteableWhere(target))
    .orderBy([
      { column: orderBy, order: sort },
      { column: 'id', order: sort },
    ]);
}
