// The Knex instance: SQLite (WAL, busy timeout, BEGIN IMMEDIATE) by default, PostgreSQL by URL.
import knexFactory, { type Knex } from 'knex';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

export function openDb(target: string, poolSize = 4): Db {
  if (/^postgres(ql)?:\/\//.test(target)) {
    return knexFactory({ client: 'pg', connection: target, pool: { min: 0, max: 10 } });
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

const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ directory: migrationsDir, loadExtensions: ['.js'] });
}

/** Whether the store is SQLite (some indexes, such as the search index, exist only there). */
export function isSqlite(db: Conn): boolean {
  return db.client.config.client !== 'pg';
}
