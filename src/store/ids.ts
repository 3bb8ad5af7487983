// A new row's id, and rows inserted with explicit ids (the bootstrap's root, a copied database): SQLite's
// AUTOINCREMENT moves past them by itself; PostgreSQL's serial sequence does not, and its
// next insert would collide. Move the sequence past the largest id, never back, so an id
// is not handed out twice, as SQLite's AUTOINCREMENT never reuses one.
import { isSqlite, type Conn } from './db.js';

export async function advanceIdSequence(db: Conn, table: string): Promise<void> {
  if (isSqlite(db)) return;
  await db.raw(
    `SELECT setval(s::regclass, GREATEST((SELECT coalesce(max(id), 0) FROM ??), coalesce(pg_sequence_last_value(s::regclass), 0), 1))
       FROM pg_get_serial_sequence(?, 'id') AS s`,
    [table, table],
  );
}

/** The id of one element of `.insert(...).returning('id')`'s answer: a number on SQLite, a row on PostgreSQL. */
export function returnedId(inserted: { id: number } | number): number {
  return Number(typeof inserted === 'object' ? inserted.id : inserted);
}

/** Inserts `row` into `table` and answers its id. */
export async function insertReturningId(db: Conn, table: string, row: object): Promise<number> {
  const [inserted] = await db(table).insert(row).returning('id');
  return returnedId(inserted);
}
