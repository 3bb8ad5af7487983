// Reads on the hot path of every request (the token, the project and the caller's access, the
// cache epochs, a page of a list) as prepared statements on their own SQLite connections:
// Knex builds the SQL and takes a pool connection on every call, which costs more than the
// query itself (5,970 req/s with one Knex query against 17,840 with a prepared
// statement). Each SQL text is prepared once per connection and reused.
//
// Only for reads outside a transaction: these connections never see a transaction's
// uncommitted rows. WAL mode lets them read while a writer writes. PostgreSQL runs the same
// SQL through Knex's raw queries (`?` placeholders on both).
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { Conn, Db } from './db.js';

const require = createRequire(import.meta.url);

export interface HotReader {
  /** The rows of a SELECT with `?` placeholders. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. Write `LIMIT 1` in the SQL when more could match. */
  first<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
}

/** Statements per connection: more than the distinct hot SQL texts there are. */
const MAX_STATEMENTS = 500;
/** Connections per process: SQLite runs one statement at a time on each. */
const CONNECTIONS = 2;

interface Statement {
  all(params: unknown[], cb: (err: Error | null, rows: unknown[]) => void): void;
  finalize(cb?: () => void): void;
}

interface RawDatabase {
  prepare(sql: string, cb: (err: Error | null) => void): Statement;
  exec(sql: string, cb: (err: Error | null) => void): void;
  configure(option: 'busyTimeout', value: number): void;
  close(cb: (err: Error | null) => void): void;
}

class SqliteConnection {
  private readonly statements = new Map<string, Statement>();
  private readonly ready: Promise<void>;

  constructor(readonly raw: RawDatabase) {
    raw.configure('busyTimeout', 5000);
    // A reader: a statement that would write is refused.
    this.ready = new Promise((resolve, reject) => raw.exec('PRAGMA query_only = 1', (err) => (err ? reject(err) : resolve())));
  }

  private statement(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      if (this.statements.size >= MAX_STATEMENTS) this.clear();
      // A preparation error reaches the first call's callback; that statement is dropped there.
      stmt = this.raw.prepare(sql, () => {});
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  async all<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    await this.ready;
    const stmt = this.statement(sql);
    return new Promise<T[]>((resolve, reject) =>
      // `all` steps to the end and resets the statement: no read transaction stays open.
      stmt.all(params as unknown[], (err, rows) => {
        if (err) {
          if (this.statements.get(sql) === stmt) this.statements.delete(sql);
          stmt.finalize();
          reject(err);
        } else resolve(rows as T[]);
      }),
    );
  }

  clear(): void {
    for (const s of this.statements.values()) s.finalize();
    this.statements.clear();
  }

  close(): Promise<void> {
    this.clear();
    return new Promise((resolve) => this.raw.close(() => resolve()));
  }
}

class SqliteReader implements HotReader {
  private next = 0;

  constructor(private readonly connections: SqliteConnection[]) {}

  all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const conn = this.connections[this.next];
    this.next = (this.next + 1) % this.connections.length;
    return conn.all<T>(sql, params);
  }

  async first<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}

class KnexReader implements HotReader {
  constructor(private readonly db: Db) {}

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const result = await this.db.raw(sql, params as never);
    return (Array.isArray(result) ? result : result.rows) as T[];
  }

  async first<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
}

const readers = new WeakMap<Db, HotReader>();

/**
 * The rows of a Knex select, run as a prepared statement on the hot reader when `db` is the
 * store itself (inside a transaction, through the transaction).
 */
export async function hotRows<T>(db: Conn, query: Knex.QueryBuilder): Promise<T[]> {
  if ((db as { isTransaction?: boolean }).isTransaction) return (await query) as T[];
  const { sql, bindings } = query.toSQL();
  return hotReader(db as Db).all<T>(sql, bindings);
}

/** The hot reader of a store (opened on first use, closed with the store). */
export function hotReader(db: Db): HotReader {
  if ((db as { isTransaction?: boolean }).isTransaction) throw new Error('hotReader reads outside transactions only');
  let reader = readers.get(db);
  if (reader) return reader;
  const filename = sqliteFile(db);
  if (filename === null) {
    reader = new KnexReader(db);
  } else {
    const sqlite3 = require('sqlite3') as { Database: new (file: string) => RawDatabase };
    const sqliteReader = new SqliteReader(Array.from({ length: CONNECTIONS }, () => new SqliteConnection(new sqlite3.Database(filename))));
    // Closed with the store: knex.destroy() ends in its client's destroy.
    const client = db.client as { destroy(callback?: unknown): Promise<void> };
    const destroy = client.destroy.bind(client);
    client.destroy = async (callback?: unknown) => {
      readers.delete(db);
      await sqliteReader.close();
      return destroy(callback);
    };
    reader = sqliteReader;
  }
  readers.set(db, reader);
  return reader;
}

function sqliteFile(db: Db): string | null {
  if (db.client.dialect !== 'sqlite3') return null;
  const connection = db.client.config.connection as { filename?: string } | undefined;
  return connection?.filename && connection.filename !== ':memory:' ? connection.filename : null;
}
