// Boots the real Wharf server on a temporary database (a SQLite file, or a fresh PostgreSQL
// database with WHARF_TEST_DB=postgres) and repos folder, and talks HTTP to it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { UserRow } from '../../src/store/rows.js';
import { insertUser } from '../../src/services/users/users.js';
import { createToken } from '../../src/services/users/tokens.js';
import { createTestDatabase } from './test_db.js';
import { freePort } from './free_port.js';

export const ROOT_TOKEN = 'root-test-token-0123456789';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as an application/x-www-form-urlencoded body. */
  form?: Record<string, string | string[]>;
  query?: Record<string, string | number | boolean | (string | number)[]>;
  headers?: Record<string, string>;
}

export class TestServer {
  constructor(
    readonly running: RunningServer,
    readonly dir: string,
    private readonly dropDb: () => Promise<void> = async () => undefined,
  ) {}

  get url(): string {
    return this.running.url;
  }

  get deps() {
    return this.running.deps;
  }

  get db() {
    return this.running.deps.db;
  }

  /** Runs every due background job (statistics, housekeeping, …) until the queue has none left. */
  drainJobs(opts?: { at?: Date }): Promise<void> {
    return this.running.jobs.drain(opts);
  }

  async request<T = any>(method: string, apiPath: string, opts: RequestOptions = {}): Promise<Reply<T>> {
    const url = new URL(apiPath.startsWith('/api/') || apiPath.startsWith('/-/') ? apiPath : `/api/v4${apiPath}`, this.url);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.append(k, String(v));
    }
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? ROOT_TOKEN : opts.token;
    if (token) headers['PRIVATE-TOKEN'] = token;
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) {
        if (Array.isArray(v)) for (const item of v) form.append(k, item);
        else form.append(k, v);
      }
      body = form.toString();
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type') === 'application/json' && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(p: string, opts?: RequestOptions) {
    return this.request<T>('GET', p, opts);
  }
  post<T = any>(p: string, opts?: RequestOptions) {
    return this.request<T>('POST', p, opts);
  }
  put<T = any>(p: string, opts?: RequestOptions) {
    return this.request<T>('PUT', p, opts);
  }
  delete<T = any>(p: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', p, opts);
  }

  /** Seeds a user with an `api` token straight through the services (fast test setup). */
  async createUser(username: string, opts: { admin?: boolean; external?: boolean; scopes?: string[] } = {}): Promise<{ user: UserRow; token: string }> {
    const user = await this.db.transaction((tx) =>
      insertUser(tx, {
        username,
        email: `${username}@example.com`,
        name: username.replace(/^./, (c) => c.toUpperCase()),
        admin: opts.admin ?? false,
        extra: opts.external ? { external: true } : {},
      }),
    );
    const { token } = await createToken(this.db, { userId: user.id, name: 'test', scopes: opts.scopes ?? ['api'] });
    return { user, token };
  }

  async close(): Promise<void> {
    await this.running.close();
    await this.dropDb();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A fresh server: its own temp folder, database and repositories; root's token is ROOT_TOKEN.
 * An explicit WHARF_DB (a database shared with another process) is used as it is and kept.
 */
export async function bootServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-test-'));
  const port = await freePort();
  const database = env.WHARF_DB ? undefined : await createTestDatabase(dir);
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    WHARF_DB: database?.target ?? '',
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_EXTERNAL_URL: `http://127.0.0.1:${port}`,
    WHARF_ROOT_TOKEN: ROOT_TOKEN,
    // Background jobs run when a test drains them (drainJobs) or asks for a runner
    // (WHARF_JOB_CONCURRENCY in `env`): never behind a test's back, so that a housekeeping
    // repack never prunes loose objects while the test's `git fsck` lists them.
    WHARF_JOB_CONCURRENCY: '0',
    WHARF_SSH_PORT: '0', // git over SSH only where a test asks for it (a port of its own)
    WHARF_SSH_HOST_KEY: path.join(dir, 'db', 'ssh_host_ed25519_key'), // the test's own, on either engine
    WHARF_SERVER_SECRET: path.join(dir, 'db', 'server_secret'), // likewise
    WHARF_BACKUP_DIR: path.join(dir, 'backups'), // likewise
    ...env,
  });
  const running = await startServer(config, pino({ level: process.env.WHARF_TEST_LOG || 'silent' }));
  return new TestServer(running, dir, database?.drop);
}
