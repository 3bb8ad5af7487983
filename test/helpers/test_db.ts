// Which database engine the tests run on (WHARF_TEST_DB=sqlite|postgres, one mocha run per
// engine) and a fresh, empty, migrated database for each test server. On PostgreSQL every
// server gets its own database, cloned from a template migrated once per run (a clone takes
// milliseconds; migrating takes seconds), and dropped when the server closes.
import path from 'node:path';
import pg from 'pg';
import { openDb, migrate } from '../../src/store/db.js';

export type Engine = 'sqlite' | 'postgres';

export function testEngine(): Engine {
  const engine = process.env.WHARF_TEST_DB || 'sqlite';
  if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`WHARF_TEST_DB must be sqlite or postgres in one mocha run, got "${engine}"`);
  return engine;
}

/** The superuser URL of the test server (set by the global fixture, or given to use a running server). */
function adminUrl(): string {
  const url = process.env.WHARF_TEST_PG_URL;
  if (!url) throw new Error('WHARF_TEST_DB=postgres needs the PostgreSQL fixture (test/helpers/engine_fixture.ts) or WHARF_TEST_PG_URL');
  return url;
}

const TEMPLATE = `wharf_template_${process.pid}`;
let admin: pg.Pool | undefined;
let counter = 0;

function adminPool(): pg.Pool {
  admin ??= new pg.Pool({ connectionString: adminUrl(), max: 2 });
  return admin;
}

function urlOf(database: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates the migrated template database the test databases are cloned from. */
export async function createTemplate(): Promise<void> {
  await adminPool().query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
  await adminPool().query(`CREATE DATABASE ${TEMPLATE}`);
  const db = openDb(urlOf(TEMPLATE));
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
}

export async function dropTemplate(): Promise<void> {
  if (!admin) return;
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await admin.end();
  admin = undefined;
}

export interface TestDatabase {
  /** WHARF_DB for a server: a SQLite file path or a postgres:// URL. */
  target: string;
  /** Removes the database (the SQLite file goes with its folder). */
  drop(): Promise<void>;
}

/** An empty, migrated database of the engine under test; `dir` is the test's temp folder. */
export async function createTestDatabase(dir: string): Promise<TestDatabase> {
  if (testEngine() === 'sqlite') return { target: path.join(dir, 'db', 'wharf.sqlite3'), drop: async () => undefined };
  const name = `wharf_t_${process.pid}_${++counter}`;
  await adminPool().query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  return {
    target: urlOf(name),
    drop: async () => {
      await adminPool().query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
