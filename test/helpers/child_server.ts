// A Wharf server in a child process (the built dist/src/main.js) on a folder the test chooses,
// so that a test can SIGKILL it mid-write and start another on the same database and
// repositories, or run two side by side as the worker processes of one installation. The
// database is of the engine under test (WHARF_TEST_DB): a SQLite file in the folder, or a
// PostgreSQL database made for the folder on its first start and shared by every server
// started on it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reply, RequestOptions } from './server.js';
import { freePort } from './free_port.js';
import { createTestDatabase, type TestDatabase } from './test_db.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.js');
export const CHILD_ROOT_TOKEN = 'child-root-token-0123456789abcdef';

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-child-'));
}

/** The database of each data folder, made on the folder's first start. */
const databases = new Map<string, Promise<TestDatabase>>();

function databaseOf(dir: string): Promise<TestDatabase> {
  let db = databases.get(dir);
  if (!db) {
    db = createTestDatabase(dir);
    databases.set(dir, db);
  }
  return db;
}

/** Removes a data folder and its database (servers on it must be stopped first). */
export async function removeDataDir(dir: string): Promise<void> {
  const db = databases.get(dir);
  databases.delete(dir);
  if (db) await (await db).drop();
  fs.rmSync(dir, { recursive: true, force: true });
}

export class ChildServer {
  private exited = false;
  private output = '';

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly dir: string,
    /** WHARF_DB of the server: its SQLite file or its PostgreSQL URL. */
    readonly dbTarget: string,
  ) {
    child.stdout?.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-8000)));
    child.stderr?.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-8000)));
    child.on('exit', () => (this.exited = true));
  }

  get reposDir(): string {
    return path.join(this.dir, 'repos');
  }

  /**
   * Starts a server on `dir` (its db/ and repos/) and waits until it answers readiness. One
   * process unless `env` sets WHARF_WORKERS.
   */
  static async start(dir: string, env: Record<string, string> = {}): Promise<ChildServer> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const target = env.WHARF_DB ?? (await databaseOf(dir)).target;
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        PORT: String(port),
        HOST: '127.0.0.1',
        WHARF_DB: target,
        WHARF_REPOS: path.join(dir, 'repos'),
        WHARF_EXTERNAL_URL: url,
        WHARF_ROOT_TOKEN: CHILD_ROOT_TOKEN,
        WHARF_SSH_PORT: '0',
        WHARF_LOG_LEVEL: process.env.WHARF_TEST_LOG || 'warn',
        WHARF_WORKERS: '1',
        // Background jobs run only where a test asks (WHARF_JOB_CONCURRENCY in `env`): a
        // housekeeping repack set off by a test's commits would otherwise prune loose objects
        // while the test's `git fsck` lists them.
        WHARF_JOB_CONCURRENCY: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ChildServer(child, url, dir, target);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exited) throw new Error(`the server exited during start:\n${server.output}`);
      try {
        if ((await fetch(`${url}/-/readiness`)).ok) return server;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the server did not become ready:\n${server.output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** An API call as root (or `opts.token`); a connection cut by a kill answers status 0. */
  async request<T = any>(method: string, apiPath: string, opts: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { 'PRIVATE-TOKEN': opts.token ?? CHILD_ROOT_TOKEN };
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    try {
      const res = await fetch(`${this.url}/api/v4${apiPath}`, { method, headers, body });
      const text = await res.text();
      const parsed = res.headers.get('content-type') === 'application/json' && text ? JSON.parse(text) : text;
      return { status: res.status, headers: res.headers, body: parsed as T, text };
    } catch (err) {
      return { status: 0, headers: new Headers(), body: undefined as T, text: String(err) };
    }
  }

  /** SIGKILL: no shutdown code runs, as in a crash or an OOM kill. */
  async kill(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await gone;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
    await this.kill();
  }

  get pid(): number {
    return this.child.pid!;
  }

  get log(): string {
    return this.output;
  }
}
