// The database part of a backup: one SQLite file holding the whole database as of one instant,
// made while the server keeps serving reads and writes. On SQLite it is `VACUUM INTO` (a
// reader: writers go on); on PostgreSQL every table read in one read-only REPEATABLE READ
// transaction into a new SQLite file (store/copy_to_sqlite.ts). The manifest records which
// migrations it has, so that a restore can refuse a newer schema and migrate an older one.
import type { Deps } from '../../deps.js';
import { isPostgresUrl, openDb, type Db } from '../../store/db.js';
import { copyPostgresToSqlite } from '../../store/copy_to_sqlite.js';

export async function snapshotDatabase(deps: Deps, file: string): Promise<void> {
  if (isPostgresUrl(deps.config.db)) await copyPostgresToSqlite(deps.db, file);
  else await deps.db.raw('VACUUM INTO ?', [file]);
}

/** The snapshot, opened on one connection (foreign keys on: deleting a project takes its rows). */
export function openSnapshot(file: string): Db {
  return openDb(file, 1);
}

/** The migrations the snapshot has, in order. */
export async function migrationsOf(snapshot: Db): Promise<string[]> {
  const rows: { name: string }[] = await snapshot('knex_migrations').orderBy('id').select('name');
  return rows.map((r) => r.name);
}
