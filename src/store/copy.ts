// Moving up from SQLite to PostgreSQL: every row of every table of a Wharf SQLite store,
// copied into an empty PostgreSQL database migrated by the same code. One transaction on the
// target (a failure leaves it empty), one read snapshot of the source, parents before
// children (foreign keys), explicit ids kept and the id sequences moved past them, and the
// row counts of both sides compared at the end. Wharf should be stopped meanwhile: what it
// writes after the snapshot is not copied.
import fs from 'node:fs';
import { isPostgresUrl, migrate, openDb, type Db, type Tx } from './db.js';
import { advanceIdSequence } from './ids.js';

export interface CopyProgress {
  /** Called once the plan is known: the tables in copy order and their source row counts. */
  start(tables: { name: string; rows: number }[]): void;
  /** Called after each batch with the rows of that batch. */
  copied(table: string, rows: number): void;
}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

/** A refusal or failure the command prints as it is (no stack trace). */
export class CopyError extends Error {}

/** Rows per INSERT: well under PostgreSQL's 65,535 bound parameters. */
const MAX_PARAMS = 30_000;
const MAX_BATCH = 1000;

/** Tables that are Knex's bookkeeping (each side has its own) and SQLite's FTS5 search tables. */
function copiedTable(name: string): boolean {
  return !name.startsWith('knex_') && !name.startsWith('sqlite_') && !/_search(_\w+)?$/.test(name);
}

/**
 * Tables a migration fills with their starting rows (the settings row, the job counters): a
 * freshly migrated target has them, and the source's rows replace them.
 */
const SEEDED_BY_MIGRATIONS = new Set(['application_settings', 'job_stats', 'cache_epochs']);

interface Column {
  name: string;
  type: string;
}

async function targetColumns(db: Db | Tx, table: string): Promise<Column[]> {
  const { rows } = await db.raw(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
    [table],
  );
  return rows;
}

/** The target's tables, parents first; self-references are left to `copyTable`. */
async function tablesInOrder(db: Tx): Promise<string[]> {
  const { rows: tables } = await db.raw(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const { rows: refs } = await db.raw(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c
       JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const names = (tables as { name: string }[]).map((t) => t.name).filter(copiedTable);
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const { child, parent } of refs as { child: string; parent: string }[]) {
    if (child !== parent) parents.get(child.replace(/"/g, ''))?.add(parent.replace(/"/g, ''));
  }
  const ordered: string[] = [];
  const done = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter((n) => !done.has(n) && [...parents.get(n)!].every((p) => done.has(p) || !parents.has(p)));
    if (!ready.length) throw new CopyError(`the foreign keys of ${names.filter((n) => !done.has(n)).join(', ')} form a cycle`);
    for (const n of ready) {
      ordered.push(n);
      done.add(n);
    }
  }
  return ordered;
}

/** Columns of `table` that reference `table` itself (a group's parent, a fork's project). */
async function selfReferences(db: Tx, table: string): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT a.attname AS name FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'f' AND c.conrelid = ?::regclass AND c.confrelid = c.conrelid`,
    [table],
  );
  return (rows as { name: string }[]).map((r) => r.name);
}

async function countRows(db: Db | Tx, table: string): Promise<number> {
  const row = await db(table).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** SQLite keeps booleans as 0/1; PostgreSQL wants true/false. Everything else is stored alike. */
function converter(columns: Column[]): (row: Record<string, unknown>) => Record<string, unknown> {
  const booleans = columns.filter((c) => c.type === 'boolean').map((c) => c.name);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const c of columns) out[c.name] = row[c.name] === undefined ? null : row[c.name];
    for (const b of booleans) if (out[b] !== null) out[b] = Boolean(out[b]);
    return out;
  };
}

async function copyTable(source: Db, target: Tx, table: string, progress: CopyProgress): Promise<void> {
  const columns = await targetColumns(target, table);
  const sourceColumns = new Set((await source.raw(`SELECT name FROM pragma_table_info(?)`, [table])).map((c: { name: string }) => c.name));
  const missing = columns.map((c) => c.name).filter((c) => !sourceColumns.has(c));
  if (missing.length) throw new CopyError(`the source's ${table} has no column ${missing.join(', ')}: is it a Wharf database?`);
  const convert = converter(columns);
  const selfRefs = await selfReferences(target, table);
  const hasId = columns.some((c) => c.name === 'id');
  // A numeric id has a serial sequence to move past the copied ids (a text id, as the job
  // processes' names, has none).
  const numericId = columns.some((c) => c.name === 'id' && ['integer', 'bigint', 'smallint'].includes(c.type));
  // A row pointing to a later row of its own table (none today: parents come first) gets
  // that column after the table is in.
  const later: { id: unknown; column: string; value: unknown }[] = [];
  const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(MAX_PARAMS / columns.length)));
  let last = -Infinity;
  for (;;) {
    // Keyset pages in rowid order (the id for tables that have one): parents before children.
    const rows: Record<string, unknown>[] = await source.raw(`SELECT rowid AS "__rowid", * FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT ?`, [
      last === -Infinity ? Number.MIN_SAFE_INTEGER : last,
      batch,
    ]);
    if (!rows.length) break;
    last = Number(rows[rows.length - 1].__rowid);
    const values = rows.map((r) => {
      const v = convert(r);
      if (hasId) {
        for (const column of selfRefs) {
          if (v[column] !== null && Number(v[column]) > Number(v.id)) {
            later.push({ id: v.id, column, value: v[column] });
            v[column] = null;
          }
        }
      }
      return v;
    });
    try {
      await target(table).insert(values);
    } catch (err) {
      throw new CopyError(`copying ${table} (rows after rowid ${String(rows[0].__rowid)}) failed: ${(err as Error).message}`);
    }
    progress.copied(table, rows.length);
  }
  for (const { id, column, value } of later)
    await target(table)
      .where({ id })
      .update({ [column]: value });
  if (numericId) await advanceIdSequence(target, table);
}

/**
 * Copies the SQLite store at `from` into the PostgreSQL database at `to`, which must be empty
 * (no rows in any Wharf table; it is migrated here). Both are migrated to this version's
 * schema first. Resolves with each table's counts, equal on both sides (else it throws).
 */
export async function copySqliteToPostgres(from: string, to: string, progress: CopyProgress): Promise<TableCount[]> {
  if (isPostgresUrl(from)) throw new CopyError('--from must be a SQLite file');
  if (!isPostgresUrl(to)) throw new CopyError('--to must be a postgres:// URL');
  if (!fs.existsSync(from)) throw new CopyError(`${from} does not exist`);
  const migrating = openDb(from);
  try {
    await migrate(migrating);
  } finally {
    await migrating.destroy();
  }
  // One connection: the read snapshot below belongs to it.
  const source = openDb(from, 1);
  const target = openDb(to, 2);
  try {
    await migrate(target);
    const counts: TableCount[] = [];
    await target.transaction(async (tx) => {
      const tables = await tablesInOrder(tx);
      const filled: string[] = [];
      for (const t of tables) if (!SEEDED_BY_MIGRATIONS.has(t) && (await countRows(tx, t)) > 0) filled.push(t);
      if (filled.length) throw new CopyError(`the target database is not empty (rows in ${filled.join(', ')}): copy into a new, empty database`);
      for (const t of tables) if (SEEDED_BY_MIGRATIONS.has(t)) await tx(t).del();
      const sourceTables = new Set((await source.raw(`SELECT name FROM sqlite_master WHERE type = 'table'`)).map((r: { name: string }) => r.name));
      const absent = tables.filter((t) => !sourceTables.has(t));
      if (absent.length) throw new CopyError(`the source has no table ${absent.join(', ')}: is it a Wharf database?`);
      // A deferred transaction on SQLite: a consistent snapshot that blocks no writer.
      await source.raw('BEGIN');
      try {
        const plan: { name: string; rows: number }[] = [];
        for (const t of tables) plan.push({ name: t, rows: await countRows(source, t) });
        progress.start(plan);
        for (const t of tables) await copyTable(source, tx, t, progress);
        // The counter triggers (migration 000025) counted the copied forks and issues on top
        // of the copied counts: count again from the rows.
        await recountProjectCounters(tx);
        for (const { name, rows } of plan) counts.push({ table: name, source: rows, target: await countRows(tx, name) });
      } finally {
        await source.raw('COMMIT');
      }
      const wrong = counts.filter((c) => c.source !== c.target);
      if (wrong.length) throw new CopyError(`row counts differ: ${wrong.map((c) => `${c.table} ${c.source} → ${c.target}`).join(', ')}`);
    });
    return counts;
  } finally {
    await source.destroy();
    await target.destroy();
  }
}

/** `projects.forks_count` and `open_issues_count` counted from the rows (migration 000025 keeps them). */
async function recountProjectCounters(db: Db | Tx): Promise<void> {
  await db('projects').update({
    forks_count: db('projects as f').count('*').whereRaw('f.forked_from_id = projects.id'),
    open_issues_count: db('issues as i').count('*').whereRaw('i.project_id = projects.id').where({ 'i.state': 'opened', 'i.confidential': false }),
  });
}
