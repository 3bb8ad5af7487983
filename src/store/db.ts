// The Knex instance: SQLite (WAL, busy timeout, BEGIN IMMEDIATE) by default, PostgreSQL by URL
// (one writer at a time through an advisory lock, the same rule as SQLite's; see below).
import knexFactory, { type Knex } from 'knex';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { refuseNewerSchema } from './migration_status.js';

const require = createRequire(import.meta.url);

export type Db = Knex;
export type Tx = Knex.Transaction;
/** Anything a query can run on: the pool or an open transaction. */
export type Conn = Knex | Knex.Transaction;

/**
 * SQLite starts a plain BEGIN as a reader and fails with SQLITE_BUSY, without waiting, when it
 * later tries to write while another connection writes. Write transactions take the write lock
 * up front instead, so busy_timeout applies.
 */
function immediateSqliteClient(): unknown {
  const Client = require('knex/lib/dialects/sqlite3/index.js');
  const Transaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js');
  class ImmediateTransaction extends Transaction {
    begin(conn: unknown) {
      return (this as any).query(conn, 'BEGIN IMMEDIATE;');
    }
  }
  class ImmediateClient extends Client {
    transaction(container: unknown, config: unknown, outerTx: unknown) {
      return new (ImmediateTransaction as any)(this, container, config, outerTx);
    }
  }
  return ImmediateClient;
}

/**
 * The key of the advisory lock every PostgreSQL write transaction takes first (any constant
 * would do; this one spells "wharf").
 */
export const WRITER_LOCK_KEY = 0x7768617266;

/**
 * The services were written against SQLite, where a write transaction (BEGIN IMMEDIATE) runs
 * alone: a service reads, checks and writes (a last owner leaving, a name being taken, an
 * access request approved twice) and nothing can slip in between. PostgreSQL's READ
 * COMMITTED would let two such transactions interleave, across processes too. So every
 * transaction starts by taking one advisory lock of the database, held until COMMIT or ROLLBACK:
 * write transactions take turns exactly as on SQLite, in every process on the database, while
 * reads (outside transactions) never wait. Waiting is bounded as SQLite's busy_timeout is:
 * a lock not had within `lock_timeout` fails the transaction instead of hanging. Nested
 * transactions are savepoints inside the outer one and take nothing more.
 */
function writerLockPgClient(): unknown {
  const Client = require('knex/lib/dialects/postgres/index.js');
  const Transaction = require('knex/lib/dialects/postgres/execution/pg-transaction.js');
  class WriterLockTransaction extends Transaction {
    async begin(conn: unknown) {
      await super.begin(conn);
      return (this as any).query(conn, `SET LOCAL lock_timeout = '${PG_LOCK_TIMEOUT}'; SELECT pg_advisory_xact_lock(${WRITER_LOCK_KEY})`);
    }
  }
  class WriterLockClient extends Client {
    transaction(container: unknown, config: unknown, outerTx: unknown) {
      return new (WriterLockTransaction as any)(this, container, config, outerTx);
    }
  }
  return WriterLockClient;
}

/** How long a PostgreSQL write transaction waits for its turn (SQLite: busy_timeout). */
const PG_LOCK_TIMEOUT = '15s';

export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

export function openDb(target: string, poolSize = 4): Db {
  if (isPostgresUrl(target)) {
    return knexFactory({
      client: writerLockPgClient() as any,
      connection: target,
      pool: {
        min: 0,
        max: poolSize,
        // No JIT: the visibility conditions give the list counts a high estimated cost, so
        // PostgreSQL would compile them to machine code first, several hundred ms for a query
        // that runs in tens (GitLab turns it off for the same reason).
        afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
          conn.query('SET jit = off', (err: Error | null) => done(err, conn));
        },
      },
    });
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  return knexFactory({
    client: immediateSqliteClient() as any,
    connection: { filename: target },
    useNullAsDefault: true,
    // Several connections so that reads run side by side (WAL readers never block); writers
    // still take turns: every transaction starts with BEGIN IMMEDIATE and waits up to
    // busy_timeout for the write lock instead of failing.
    pool: {
      min: 1,
      max: poolSize,
      afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
        conn.serialize(() => {
          conn.run('PRAGMA journal_mode = WAL');
          conn.run('PRAGMA synchronous = NORMAL');
          conn.run('PRAGMA foreign_keys = ON');
          conn.run('PRAGMA busy_timeout = 5000', (err: Error | null) => done(err, conn));
        });
      },
    },
  });
}

/** The compiled migrations (dist/migrations). */
export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/**
 * Runs the migrations not run yet; refuses (NewerSchemaError, store/migration_status.ts),
 * before writing anything, a database that has run migrations this build does not have.
 */
export async function migrate(db: Db): Promise<void> {
  await refuseNewerSchema(db, migrationsDir);
  await db.migrate.latest({ directory: migrationsDir, loadExtensions: ['.js'] });
}

/**
 * SQLite compares and sorts text byte by byte and its lower() folds ASCII letters only; a
 * PostgreSQL database created with the C locale does the same, so lists sorted by name and
 * case-insensitive names answer identically on both. Another locale works, but may order
 * names differently (and fold non-ASCII case): the reason why, for the log, or null.
 */
export async function postgresLocaleMismatch(db: Db): Promise<string | null> {
  if (isSqlite(db)) return null;
  const { rows } = await db.raw('SELECT datcollate, datctype FROM pg_database WHERE datname = current_database()');
  const { datcollate, datctype } = rows[0] as { datcollate: string; datctype: string };
  // C.UTF-8 sorts by code point as C does, but its ctype folds more than ASCII.
  const plain = (l: string) => l === 'C' || l === 'POSIX';
  if ((plain(datcollate) || datcollate.startsWith('C.')) && plain(datctype)) return null;
  return `the database's locale is LC_COLLATE=${datcollate} LC_CTYPE=${datctype}, not C: lists sorted by name may differ from SQLite's order (create the database with --locale=C, see the README)`;
}

/** Whether the store is SQLite rather than PostgreSQL (for the few queries that differ). */
export function isSqlite(db: Conn): boolean {
  return db.client.dialect === 'sqlite3';
}

/**
 * Runs `fn` once `db`'s transaction has committed (at once outside a transaction); never when
 * it rolls back. A savepoint's release counts as its commit.
 */
export function afterCommit(db: Conn, fn: () => void): void {
  const tx = db as Partial<{ isTransaction: boolean; executionPromise: Promise<unknown> }>;
  if (tx.isTransaction && tx.executionPromise) {
    tx.executionPromise.then(fn, () => undefined);
  } else {
    fn();
  }
}

/** Whether a write failed on a unique index (SQLite's constraint error, PostgreSQL's 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === 'SQLITE_CONSTRAINT' || e.code === '23505' || /UNIQUE constraint failed/.test(e.message ?? '');
}
