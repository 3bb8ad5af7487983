// Shared by the load benchmarks (projects, issues, merge_requests): boots Wharf as a child
// process on a temporary folder with a known root token and waits for readiness, a small API
// client, settings from the environment, autocannon rows (with warm-up) and the markdown report
// written to bench/results/. The in-process timing benchmarks use the client and the results
// writer too (see timing.ts).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../test/helpers/pg_cluster.js';
import { advanceIdSequence } from '../src/store/ids.js';
import { isSqlite, type Db } from '../src/store/db.js';
import { freePort } from '../test/helpers/free_port.js';

const HERE = path.dirname(fileURLToPath(import.meta.url)); // dist/bench
export const REPO = path.resolve(HERE, '../..');
export const MAIN = path.resolve(HERE, '../src/main.js');
export const ROOT_TOKEN = 'bench-root-token-0123456789abcdef';

// ---------------------------------------------------------------------------------------------
// Settings.

export function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

export interface LoadSettings {
  duration: number;
  connections: number;
  warmup: number;
}

/** BENCH_DURATION (seconds per run), BENCH_CONNECTIONS (10), BENCH_WARMUP (seconds, 1). */
export function loadSettings(defaultDuration: number): LoadSettings {
  return {
    duration: intEnv('BENCH_DURATION', defaultDuration),
    connections: intEnv('BENCH_CONNECTIONS', 10),
    warmup: intEnv('BENCH_WARMUP', 1),
  };
}

/** The scenarios whose "endpoint as who" matches BENCH_ONLY (a regular expression), or all. */
export function selected<S extends Scenario>(list: S[]): S[] {
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
  return list.filter((s) => !only || only.test(`${s.endpoint} as ${s.who}`));
}

// ---------------------------------------------------------------------------------------------
// The database: a SQLite file in the server's folder, or with BENCH_DB=postgres a database of
// a throwaway PostgreSQL cluster started for the run (test/helpers/pg_cluster.ts: C locale,
// fsync off, which the reads measured here never wait for) and stopped when the run ends.

export const BENCH_DB: 'sqlite' | 'postgres' = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'sqlite';

let cluster: PgCluster | undefined;
let databases = 0;

async function benchDatabase(dir: string): Promise<string> {
  if (BENCH_DB === 'sqlite') return path.join(dir, 'db', 'wharf.sqlite3');
  if (!cluster) {
    cluster = await startPgCluster();
    process.once('exit', () => cluster?.stop());
  }
  const name = `wharf_bench_${++databases}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

/**
 * After rows were bulk-inserted with their ids: the id sequences move past them, and on
 * PostgreSQL VACUUM ANALYZE does what autovacuum would shortly after a bulk load (planner
 * statistics, and the visibility map without which every index-only scan reads the table).
 */
export async function afterBulkInsert(db: Db, tablesWithIds: string[]): Promise<void> {
  for (const table of tablesWithIds) await advanceIdSequence(db, table);
  if (!isSqlite(db)) await db.raw('VACUUM ANALYZE');
}

// ---------------------------------------------------------------------------------------------
// The server, in its own process so that autocannon (in this one) does not share its event loop.

export interface Server {
  url: string;
  child: ChildProcess;
  dir: string;
  /** WHARF_DB of the server: the SQLite file, or the PostgreSQL URL with BENCH_DB=postgres. */
  dbFile: string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Extra node options for the server. */
  nodeArgs?: string[];
  /** Keep the temporary folder at the end. */
  keep?: boolean;
  /** Extra environment for the server (WHARF_WORKERS, …). */
  env?: Record<string, string>;
  /** Serve this folder (its db/ and repos/) instead of a new temporary one; it is kept. */
  dir?: string;
  /** With `dir`: the database of the server that used it (Server.dbFile), on either engine. */
  db?: string;
}

/** The environment of a Wharf server under benchmark on `port`, on `db` with its repositories in `dir`. */
export function serverEnv(port: number, dir: string, db: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    WHARF_DB: db,
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_EXTERNAL_URL: `http://127.0.0.1:${port}`,
    WHARF_ROOT_TOKEN: ROOT_TOKEN,
    WHARF_SSH_PORT: '0',
    WHARF_LOG_LEVEL: 'warn',
    ...extra,
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function bootServer(options: ServerOptions = {}): Promise<Server> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npx tsc -p tsconfig.json)`);
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-'));
  const dbFile = options.db ?? (options.dir ? path.join(dir, 'db', 'wharf.sqlite3') : await benchDatabase(dir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
    env: serverEnv(port, dir, dbFile, {
      ...(process.env.WHARF_WORKERS ? { WHARF_WORKERS: process.env.WHARF_WORKERS } : {}),
      ...(process.env.WHARF_LIST_CACHE_MB ? { WHARF_LIST_CACHE_MB: process.env.WHARF_LIST_CACHE_MB } : {}),
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  let exited = false;
  child.on('exit', () => (exited = true));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`the server exited during start:\n${output}`);
    try {
      const r = await fetch(`${url}/-/readiness`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not become ready in 30 s:\n${output}`);
    await sleep(100);
  }

  return {
    url,
    child,
    dir,
    dbFile,
    async stop() {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await Promise.race([gone, sleep(5000)]);
        if (!exited) child.kill('SIGKILL');
      }
      if (options.dir) return;
      if (options.keep) console.error(`kept ${dir}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Boots the server, runs `body`, and stops the server at the end or on Ctrl-C. */
export async function withServer(options: ServerOptions, body: (server: Server) => Promise<void>): Promise<void> {
  console.error(`booting Wharf (${MAIN})…`);
  const server = await bootServer(options);
  const stopOnSignal = () => void server.stop().then(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  try {
    await body(server);
  } finally {
    process.off('SIGINT', stopOnSignal);
    await server.stop();
  }
}

/** Resident memory of a process in MB (Linux), or null. */
export function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** The process and its descendants (Linux /proc), e.g. a primary and its workers. */
export function processTree(pid: number | undefined): number[] {
  if (!pid) return [];
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** Resident memory of each process of the tree in MB, the root first. */
export function treeRssMb(pid: number | undefined): number[] {
  return processTree(pid).map((p) => rssMb(p) ?? 0);
}

// ---------------------------------------------------------------------------------------------
// The API client and seeding helpers.

export class Api {
  constructor(
    readonly url: string,
    readonly token: string = ROOT_TOKEN,
  ) {}

  async call<T = any>(method: string, apiPath: string, json?: unknown): Promise<{ body: T; headers: Headers }> {
    const res = await fetch(`${this.url}/api/v4${apiPath}`, {
      method,
      headers: { 'PRIVATE-TOKEN': this.token, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${apiPath} -> ${res.status}: ${text.slice(0, 500)}`);
    return { body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  /** GET of a raw body (blobs, archives); anything but 200 is an error. */
  async raw(apiPath: string): Promise<Buffer> {
    const res = await fetch(`${this.url}/api/v4${apiPath}`, { headers: { 'PRIVATE-TOKEN': this.token } });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${apiPath} → ${res.status} ${body.toString().slice(0, 200)}`);
    return body;
  }

  /** Creates a confirmed user (as admin); returns its id. */
  async createUser(username: string, name: string): Promise<number> {
    const { body } = await this.call('POST', '/users', {
      username,
      email: `${username}@example.com`,
      name,
      password: 'correct-horse-battery',
      skip_confirmation: true,
    });
    return body.id;
  }

  /** An impersonation token of scope `api` for the user (as admin). */
  async impersonationToken(userId: number): Promise<string> {
    const { body } = await this.call('POST', `/users/${userId}/impersonation_tokens`, { name: 'bench', scopes: ['api'] });
    return body.token;
  }
}

/** Runs `task(i)` for i in [0, n) with at most `limit` in flight. */
export async function pool(n: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, n)) }, worker));
}

/** A small deterministic PRNG (mulberry32), so every run seeds the same data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Identity {
  id: number;
  username: string;
  token: string;
}

// ---------------------------------------------------------------------------------------------
// Load: one autocannon row per scenario.

export interface Scenario {
  endpoint: string;
  who: string;
  token: string;
  /** GET paths, cycled through. */
  paths: string[];
}

export interface Row {
  endpoint: string;
  who: string;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
}

export async function load(url: string, s: Scenario, duration: number, connections: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration,
    timeout: 30,
    headers: { 'PRIVATE-TOKEN': s.token },
    requests: s.paths.map((p) => ({ method: 'GET', path: p })),
  });
}

/** A warm-up (not counted), then the measured run. */
export async function measure(url: string, s: Scenario, settings: LoadSettings): Promise<Row> {
  if (settings.warmup > 0) await load(url, s, settings.warmup, settings.connections);
  const r = await load(url, s, settings.duration, settings.connections);
  return {
    endpoint: s.endpoint,
    who: s.who,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** One request to the scenario's first path, which must succeed; returns its X-Total. */
export async function probe(url: string, s: Scenario): Promise<string> {
  const res = await fetch(`${url}${s.paths[0]}`, { headers: { 'PRIVATE-TOKEN': s.token } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${s.paths[0]} as ${s.who} -> ${res.status}`);
  return res.headers.get('x-total') ?? '?';
}

// ---------------------------------------------------------------------------------------------
// The report.

export interface Column<R> {
  head: string;
  cell(row: R): string | number;
}

/** The markdown table of the rows: endpoint, as, `before`, the autocannon figures, `after`. */
export function table<R extends Row>(rows: R[], before: Column<R>[] = [], after: Column<R>[] = []): string {
  const figures: Column<R>[] = [
    { head: 'req/s', cell: (r) => r.rps.toFixed(0) },
    { head: 'p50 ms', cell: (r) => r.p50 },
    { head: 'p90 ms', cell: (r) => r.p90 },
    { head: 'p99 ms', cell: (r) => r.p99 },
    { head: 'max ms', cell: (r) => r.max },
    { head: 'requests', cell: (r) => r.total },
    { head: 'non-2xx', cell: (r) => r.non2xx },
    { head: 'errors', cell: (r) => r.errors },
  ];
  const numeric = [...before, ...figures, ...after];
  const lines = [`| endpoint | as | ${numeric.map((c) => c.head).join(' | ')} |`, `|---|---|${numeric.map(() => '---:').join('|')}|`];
  for (const r of rows) lines.push(`| \`${r.endpoint}\` | ${r.who} | ${numeric.map((c) => c.cell(r)).join(' | ')} |`);
  return lines.join('\n');
}

export function gitDescription(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO, encoding: 'utf8' }).trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

/** The report's title and its "When" and "Machine" lines. */
export function preamble(title: string): string[] {
  const cpus = os.cpus();
  return [
    title,
    '',
    `- When: ${new Date().toISOString()}; commit ${gitDescription()}; Node ${process.version}`,
    `- Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.platform()} ${os.release()}`,
    `- Database: ${BENCH_DB === 'sqlite' ? 'SQLite (WAL)' : 'PostgreSQL (a throwaway local cluster, C locale, fsync off; BENCH_DB=postgres)'}`,
  ];
}

/** Writes `text` to bench/results/`name`; returns the file's path. */
export function writeResults(name: string, text: string): string {
  const file = path.join(REPO, 'bench', 'results', BENCH_DB === 'postgres' ? name.replace(/(\.\w+)$/, '-postgres$1') : name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Prints the report, writes it to bench/results/`name`, and fails the run on any non-2xx or error. */
export function publish(name: string, heading: string, tableText: string, rows: Row[]): void {
  const report = `${heading}\n${tableText}\n`;
  console.log(`\n${report}`);
  const file = writeResults(name, report);
  console.error(`written to ${path.relative(process.cwd(), file) || file}`);
  const bad = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (bad.length) {
    console.error(`WARNING: non-2xx responses or errors in ${bad.map((r) => `${r.endpoint} as ${r.who}`).join(', ')}`);
    process.exitCode = 1;
  }
}

/** Whether the module of `metaUrl` is the script node was started with (not imported). */
export function isMain(metaUrl: string): boolean {
  return !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(metaUrl);
}

/** Runs the benchmark's main; on failure prints the error and exits 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((e) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
