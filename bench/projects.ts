// Benchmark of the projects API: boots Wharf in a child process on a temporary folder, seeds
// users, groups and projects through the API, then loads a few read endpoints with autocannon.
// Run with `make bench` (node dist/bench/projects.js). See bench/README.md.
//
// Settings (environment): BENCH_PROJECTS (1000), BENCH_DURATION seconds per run (10),
// BENCH_CONNECTIONS (10), BENCH_WARMUP seconds before each run (1), BENCH_SEED_CONCURRENCY (4).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const HERE = path.dirname(fileURLToPath(import.meta.url)); // dist/bench
const REPO = path.resolve(HERE, '../..');
const MAIN = path.resolve(HERE, '../src/main.js');
const RESULTS = path.join(REPO, 'bench', 'results', 'projects.md');

const ROOT_TOKEN = 'bench-root-token-0123456789abcdef';

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

const SETTINGS = {
  projects: intEnv('BENCH_PROJECTS', 1000),
  duration: intEnv('BENCH_DURATION', 10),
  connections: intEnv('BENCH_CONNECTIONS', 10),
  warmup: intEnv('BENCH_WARMUP', 1),
  seedConcurrency: intEnv('BENCH_SEED_CONCURRENCY', 4),
};
const GROUPS = 4;
const MEMBER_GROUPS = 2; // the non-admin user is a developer in the first two groups
const OTHER_USERS = 3;

// ---------------------------------------------------------------------------------------------
// The server, in its own process so that autocannon (in this one) does not share its event loop.

interface Server {
  url: string;
  child: ChildProcess;
  dir: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function bootServer(): Promise<Server> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npx tsc -p tsconfig.json)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      WHARF_DB: path.join(dir, 'db', 'wharf.sqlite3'),
      WHARF_REPOS: path.join(dir, 'repos'),
      WHARF_EXTERNAL_URL: url,
      WHARF_ROOT_TOKEN: ROOT_TOKEN,
      WHARF_LOG_LEVEL: 'warn',
    },
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
    async stop() {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await Promise.race([gone, sleep(5000)]);
        if (!exited) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resident memory of a process in MB (Linux), or null. */
function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Seeding through the API, as root.

class Api {
  constructor(
    readonly url: string,
    readonly token: string,
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
}

/** Runs `task(i)` for i in [0, n) with at most `limit` in flight. */
async function pool(n: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, n)) }, worker));
}

interface Seed {
  memberToken: string;
  memberUsername: string;
  /** Projects the member can read (in the member's groups); used for GET /projects/:id. */
  sampleIds: number[];
  seconds: number;
}

function visibilityOf(i: number): string {
  if (i % 10 === 0) return 'public';
  if (i % 10 === 1) return 'internal';
  return 'private';
}

async function seed(root: Api): Promise<Seed> {
  const started = Date.now();
  const users: { id: number; username: string }[] = [];
  for (let u = 0; u <= OTHER_USERS; u++) {
    const username = u === 0 ? 'member' : `user${u}`;
    const { body } = await root.call('POST', '/users', {
      username,
      email: `${username}@example.com`,
      name: username,
      password: 'correct-horse-battery',
      skip_confirmation: true,
    });
    users.push({ id: body.id, username });
  }
  const member = users[0];
  const { body: token } = await root.call('POST', `/users/${member.id}/impersonation_tokens`, { name: 'bench', scopes: ['api'] });

  const groups: number[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const { body } = await root.call('POST', '/groups', { name: `Group ${g}`, path: `group-${g}`, visibility: 'public' });
    groups.push(body.id);
    if (g < MEMBER_GROUPS) await root.call('POST', `/groups/${body.id}/members`, { user_id: member.id, access_level: 30 });
    const other = users[1 + (g % OTHER_USERS)];
    await root.call('POST', `/groups/${body.id}/members`, { user_id: other.id, access_level: 20 });
  }

  // Nine projects in ten go to the groups (round robin), one in ten to root's own namespace.
  const memberIds: number[] = [];
  await pool(SETTINGS.projects, SETTINGS.seedConcurrency, async (i) => {
    const params: Record<string, unknown> = { name: `project-${String(i).padStart(4, '0')}`, visibility: visibilityOf(i), description: `Seeded project ${i}` };
    const g = i % 10 === 9 ? -1 : i % GROUPS;
    if (g >= 0) params.namespace_id = groups[g];
    const { body } = await root.call('POST', '/projects', params);
    if (g >= 0 && g < MEMBER_GROUPS) memberIds.push(body.id);
  });
  memberIds.sort((a, b) => a - b);
  const step = Math.max(1, Math.floor(memberIds.length / 20));
  const sampleIds = memberIds.filter((_, i) => i % step === 0).slice(0, 20);
  return { memberToken: token.token, memberUsername: member.username, sampleIds, seconds: (Date.now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Load.

interface Scenario {
  endpoint: string;
  who: string;
  token: string;
  paths: string[];
}

interface Row {
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

async function load(url: string, s: Scenario, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: SETTINGS.connections,
    duration,
    timeout: 30,
    headers: { 'PRIVATE-TOKEN': s.token },
    requests: s.paths.map((p) => ({ method: 'GET', path: p })),
  });
}

async function run(url: string, s: Scenario): Promise<Row> {
  if (SETTINGS.warmup > 0) await load(url, s, SETTINGS.warmup);
  const r = await load(url, s, SETTINGS.duration);
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

async function visibleTotal(api: Api): Promise<string> {
  const { headers } = await api.call('GET', '/projects?per_page=1');
  return headers.get('x-total') ?? '?';
}

function table(rows: Row[]): string {
  const lines = [
    '| endpoint | as | req/s | p50 ms | p90 ms | p99 ms | max ms | requests | non-2xx | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| \`${r.endpoint}\` | ${r.who} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.total} | ${r.non2xx} | ${r.errors} |`,
    );
  }
  return lines.join('\n');
}

function gitDescription(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO, encoding: 'utf8' }).trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  const loadBefore = os.loadavg();
  console.error(`booting Wharf (${MAIN})…`);
  const server = await bootServer();
  const stopOnSignal = () => void server.stop().then(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  try {
    const root = new Api(server.url, ROOT_TOKEN);
    const rssIdle = rssMb(server.child.pid);
    console.error(`seeding ${SETTINGS.projects} projects in ${GROUPS} groups (${SETTINGS.seedConcurrency} requests in flight)…`);
    const seeded = await seed(root);
    const member = new Api(server.url, seeded.memberToken);
    const rootSees = await visibleTotal(root);
    const memberSees = await visibleTotal(member);
    console.error(`seeded in ${seeded.seconds.toFixed(1)} s (${(SETTINGS.projects / seeded.seconds).toFixed(0)} projects/s); root sees ${rootSees}, member sees ${memberSees}`);
    const rssSeeded = rssMb(server.child.pid);

    const byId = seeded.sampleIds.map((id) => `/api/v4/projects/${id}`);
    const identities = [
      { who: 'root (admin)', token: ROOT_TOKEN },
      { who: `${seeded.memberUsername} (non-admin)`, token: seeded.memberToken },
    ];
    const scenarios: Scenario[] = [];
    for (const id of identities) {
      scenarios.push({ endpoint: 'GET /api/v4/projects/:id', ...id, paths: byId });
      scenarios.push({ endpoint: 'GET /api/v4/projects?per_page=20', ...id, paths: ['/api/v4/projects?per_page=20'] });
      scenarios.push({ endpoint: 'GET /api/v4/projects?per_page=100', ...id, paths: ['/api/v4/projects?per_page=100'] });
    }

    const rows: Row[] = [];
    for (const s of scenarios) {
      console.error(`${s.endpoint} as ${s.who}: ${SETTINGS.duration} s, ${SETTINGS.connections} connections…`);
      rows.push(await run(server.url, s));
    }
    const rssLoaded = rssMb(server.child.pid);
    const loadAfter = os.loadavg();

    const heading = [
      '# Wharf projects API benchmark',
      '',
      `- When: ${new Date().toISOString()}; commit ${gitDescription()}; Node ${process.version}`,
      `- Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.platform()} ${os.release()}`,
      `- **Client and server share the same ${cpus.length} cores**: autocannon runs in this process, Wharf in a child process; ` +
        'the figures are a lower bound of what the server does alone.',
      `- Data: ${SETTINGS.projects} projects (1 in 10 public, 1 in 10 internal, the rest private) in ${GROUPS} groups and root's namespace; ` +
        `${OTHER_USERS + 1} users. Root sees ${rootSees} projects, the non-admin member (developer in ${MEMBER_GROUPS} groups) sees ${memberSees}. ` +
        `Seeding through the API took ${seeded.seconds.toFixed(1)} s.`,
      `- Load: autocannon, ${SETTINGS.connections} connections, ${SETTINGS.duration} s per row after a ${SETTINGS.warmup} s warm-up, no pipelining; ` +
        `\`/projects/:id\` cycles through ${byId.length} projects the member can read. SQLite database on ${os.tmpdir()}.`,
      `- Server RSS: ${rssIdle ?? '?'} MB after start, ${rssSeeded ?? '?'} MB after seeding, ${rssLoaded ?? '?'} MB after the runs.`,
      `- Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)}; ` +
        'a value well above 1 before the start means something else was using the cores and the figures are low.',
      '',
    ].join('\n');
    const report = `${heading}\n${table(rows)}\n`;
    console.log(`\n${report}`);
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(RESULTS, report);
    console.error(`written to ${path.relative(process.cwd(), RESULTS) || RESULTS}`);
    const bad = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
    if (bad.length) {
      console.error(`WARNING: non-2xx responses or errors in ${bad.map((r) => `${r.endpoint} as ${r.who}`).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    process.off('SIGINT', stopOnSignal);
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
