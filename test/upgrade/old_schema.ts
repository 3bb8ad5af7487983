// A database as an earlier Wharf made it: an empty database of the engine under test (a new
// SQLite file, or a new PostgreSQL database beside the suite's template), migrated by an old
// migration set kept under test/fixtures/migrations_<commit>/ (the files as that commit had
// them, compiled with the tests), opened as that Wharf opened it. Knex records the old files'
// names, which are today's names: today's migrate() then runs only what came after.
import knexFactory, { type Knex } from 'knex';
import path from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { openDb } from '../../src/store/db.js';
import { testEngine } from '../helpers/test_db.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

/** The compiled old migrations of `commit` (test/fixtures/migrations_<commit>). */
export function oldMigrationsDir(commit: string): string {
  return path.join(FIXTURES, `migrations_${commit}`);
}

export interface EmptyDatabase {
  /** WHARF_DB for a server: a SQLite file path or a postgres:// URL. */
  target: string;
  drop(): Promise<void>;
}

let counter = 0;

/** A database with nothing in it, not even Knex's table (the suite's template is migrated). */
export async function emptyDatabase(dir: string): Promise<EmptyDatabase> {
  if (testEngine() === 'sqlite') return { target: path.join(dir, 'db', 'wharf.sqlite3'), drop: async () => undefined };
  const admin = process.env.WHARF_TEST_PG_URL;
  if (!admin) throw new Error('the PostgreSQL run needs WHARF_TEST_PG_URL (test/helpers/engine_fixture.ts sets it)');
  const name = `wharf_old_${process.pid}_${++counter}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { target: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * Opens `target` as the Wharf of those migrations did: its SQLite store is today's, while on
 * PostgreSQL it named Knex's plain 'pg' client, which an old migration tests for (000015 as
 * first written skipped SQLite's FTS5 index where `client.config.client` was 'pg').
 */
function openAsOld(target: string): Knex {
  return testEngine() === 'sqlite' ? openDb(target, 1) : knexFactory({ client: 'pg', connection: target, pool: { min: 0, max: 2 } });
}

/** Migrates `target` with the old set of `commit`; the caller fills it and destroys it. */
export async function migrateAsOf(target: string, commit: string): Promise<Knex> {
  const db = openAsOld(target);
  await db.migrate.latest({ directory: oldMigrationsDir(commit), loadExtensions: ['.js'] });
  return db;
}
