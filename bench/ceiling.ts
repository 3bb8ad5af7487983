// The performance table: Wharf against the framework's ceiling (bare Koa answering the same JSON
// body) in the same run, and the other performance goals: the project, file and tree reads at 50
// connections as a ratio of bare Koa, the three lists at per_page=100 (100,000 issues, 10,000
// merge requests, 1,000 projects) at 10 connections and alone, memory at idle and under the
// lists, start-up on an empty database, and WHARF_WORKERS=N against 1.
// Run with `make bench` (node dist/bench/ceiling.js). See bench/README.md.
//
// Settings (environment): BENCH_DURATION seconds per row (8), BENCH_WARMUP (2), BENCH_ISSUES
// (100000), BENCH_MRS (10000), BENCH_PROJECTS (1000), BENCH_WORKERS (the server's default:
// the core count), BENCH_ONLY (a regular expression on "endpoint as who"), BENCH_NODE_ARGS
// (extra node options for Wharf, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openDb, type Db } from '../src/store/db.js';
import { Api, bootServer, intEnv, isMain, preamble, ROOT_TOKEN, runMain, sleep, treeRssMb, writeResults, type Identity, type Server } from './harness.js';
import { insertIssues } from './issues.js';
import { insertMergeRequests } from './merge_requests.js';
import { freePort } from '../test/helpers/free_port.js';
import { startUp, startUpRows, stopChild, waitReady } from './startup.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SETTINGS = {
  duration: intEnv('BENCH_DURATION', 8),
  warmup: intEnv('BENCH_WARMUP', 2),
  issues: intEnv('BENCH_ISSUES', 100_000),
  mrs: intEnv('BENCH_MRS', 10_000),
  projects: intEnv('BENCH_PROJECTS', 1000),
  workers: process.env.BENCH_WORKERS ? String(intEnv('BENCH_WORKERS', 2)) : '',
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== ''),
  only: process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null,
};

// ---------------------------------------------------------------------------------------------
// Seeding.

interface Seed {
  app: number;
  tracker: number;
  member: Identity;
  seconds: number;
}

async function seed(root: Api, dbFile: string): Promise<Seed> {
  const started = Date.now();
  const { body: rootUser } = await root.call('GET', '/user');
  const people: Identity[] = [];
  for (let i = 0; i < 10; i++) {
    const username = i === 0 ? 'member' : `dev${i}`;
    people.push({ id: await root.createUser(username, `Bench ${username}`), username, token: '' });
  }
  const member = people[0];
  member.token = await root.impersonationToken(member.id);
  const groups: number[] = [];
  for (let g = 0; g < 4; g++) {
    const { body } = await root.call('POST', '/groups', { name: `Group ${g}`, path: `group-${g}`, visibility: 'private' });
    groups.push(body.id);
    if (g < 2) await root.call('POST', `/groups/${body.id}/members`, { user_id: member.id, access_level: 30 });
  }
  const { body: app } = await root.call('POST', '/projects', { name: 'app', namespace_id: groups[0], visibility: 'private', description: 'The application' });
  await root.call('POST', `/projects/${app.id}/repository/commits`, {
    branch: 'master',
    commit_message: 'seed',
    actions: [
      { action: 'create', file_path: 'README.md', content: `# app\n\n${'A line of the readme.\n'.repeat(40)}` },
      ...Array.from({ length: 20 }, (_, i) => ({ action: 'create', file_path: `src/file${i}.txt`, content: `file ${i}\n` })),
      { action: 'create', file_path: 'docs/guide.md', content: 'guide\n' },
    ],
  });
  const { body: tracker } = await root.call('POST', '/projects', { name: 'tracker', namespace_id: groups[1], visibility: 'private' });
  for (let i = 1; i < people.length; i++) await root.call('POST', `/projects/${tracker.id}/members`, { user_id: people[i].id, access_level: 30 });
  const labels: { id: number }[] = [];
  for (let l = 0; l < 20; l++) {
    const { body } = await root.call('POST', `/projects/${tracker.id}/labels`, { name: `label-${l}`, color: '#428bca' });
    labels.push({ id: body.id });
  }
  const milestones: { id: number }[] = [];
  for (let m = 0; m < 10; m++) {
    const { body } = await root.call('POST', `/projects/${tracker.id}/milestones`, { title: `Release ${m + 1}.0` });
    milestones.push({ id: body.id });
  }

  const db = openDb(dbFile, 1);
  try {
    await insertIssues(db, tracker.id, rootUser.id, people, labels, milestones, SETTINGS.issues);
    await insertMergeRequests(
      db,
      tracker.id,
      0,
      people,
      labels,
      milestones.map((m) => m.id),
      SETTINGS.mrs,
    );
    await insertProjects(db, groups, rootUser.id, SETTINGS.projects - 2);
  } finally {
    await db.destroy();
  }
  return { app: app.id, tracker: tracker.id, member, seconds: (Date.now() - started) / 1000 };
}

/** Project rows straight into the database (the lists read rows, not repositories). */
async function insertProjects(db: Db, groups: number[], rootId: number, n: number): Promise<void> {
  const rootNamespace = (await db('namespaces').where({ kind: 'user', owner_id: rootId }).first('id')).id as number;
  const rows: Record<string, unknown>[] = [];
  const start = Date.parse('2025-06-01T00:00:00.000Z');
  for (let i = 0; i < n; i++) {
    const stamp = new Date(start + i * 60_000).toISOString();
    rows.push({
      namespace_id: i % 10 === 9 ? rootNamespace : groups[i % groups.length],
      name: `project-${String(i).padStart(4, '0')}`,
      path: `project-${String(i).padStart(4, '0')}`,
      description: `Seeded project ${i}`,
      visibility_level: i % 10 === 0 ? 20 : i % 10 === 1 ? 10 : 0,
      creator_id: rootId,
      runners_token: crypto.randomBytes(10).toString('hex'),
      created_at: stamp,
      updated_at: stamp,
      last_activity_at: stamp,
    });
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 200) await tx('projects').insert(rows.slice(i, i + 200));
  });
}

// ---------------------------------------------------------------------------------------------
// Load.

interface Scenario {
  endpoint: string;
  who: string;
  token?: string;
  path: string;
  connections: number;
  /** Also run with one connection (a request alone). */
  alone?: boolean;
}

interface Result {
  s: Scenario;
  rps: number;
  p50: number;
  p99: number;
  alone?: { p50: number; p99: number };
  errors: number;
}

function run(url: string, s: Scenario, connections: number, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}${s.path}`,
    connections,
    duration,
    timeout: 30,
    headers: s.token ? { 'PRIVATE-TOKEN': s.token } : {},
  });
}

async function measure(url: string, s: Scenario): Promise<Result> {
  const probe = await fetch(`${url}${s.path}`, { headers: s.token ? { 'PRIVATE-TOKEN': s.token } : {} });
  await probe.arrayBuffer();
  if (!probe.ok) throw new Error(`${s.path} as ${s.who} -> ${probe.status}`);
  console.error(`${s.endpoint} as ${s.who}: ${s.connections} connections, ${SETTINGS.duration} s…`);
  if (SETTINGS.warmup) await run(url, s, s.connections, SETTINGS.warmup);
  const r = await run(url, s, s.connections, SETTINGS.duration);
  const out: Result = { s, rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
  if (s.alone) {
    const one = await run(url, s, 1, Math.max(2, Math.round(SETTINGS.duration / 2)));
    out.alone = { p50: one.latency.p50, p99: one.latency.p99 };
    out.errors += one.errors + one.non2xx;
  }
  return out;
}

/** Samples the tree's RSS while `body` runs; returns the body's value and the largest total. */
async function withRssPeak<T>(pid: number | undefined, body: () => Promise<T>): Promise<{ value: T; peak: number; perProcess: number[] }> {
  let peak = 0;
  let perProcess: number[] = [];
  const timer = setInterval(() => {
    const rss = treeRssMb(pid);
    const total = rss.reduce((a, b) => a + b, 0);
    if (total > peak) {
      peak = total;
      perProcess = rss;
    }
  }, 500);
  try {
    return { value: await body(), peak, perProcess };
  } finally {
    clearInterval(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Bare Koa.

async function withBareKoa<T>(body: unknown, fn: (url: string) => Promise<T>, asBytes = false): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bare-'));
  const file = path.join(dir, 'body.json');
  fs.writeFileSync(file, JSON.stringify(body));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(HERE, 'bare_koa.js')], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production', PORT: String(port), BARE_BODY_FILE: file, BARE_AS_BYTES: asBytes ? '1' : '0' },
    stdio: 'ignore',
  });
  try {
    await waitReady(url, child, 10_000);
    return await fn(url);
  } finally {
    await stopChild(child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The report.

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '?');
/** autocannon's latencies are whole milliseconds: 0 means under one. */
const ms = (n: number | undefined) => (n === undefined ? '?' : n === 0 ? '< 1' : String(n));

function selected(s: Scenario): boolean {
  return !SETTINGS.only || SETTINGS.only.test(`${s.endpoint} as ${s.who}`);
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const cpus = os.cpus();

  console.error('start-up on empty databases…');
  const runs = intEnv('BENCH_STARTUP_RUNS', 5);
  const startups = [await startUp('1', runs), await startUp(String(cpus.length), runs)];

  console.error('booting Wharf and seeding…');
  const server: Server = await bootServer({ nodeArgs: SETTINGS.nodeArgs, keep: false, env: SETTINGS.workers ? { WHARF_WORKERS: SETTINGS.workers } : {} });
  const workers = SETTINGS.workers || String(cpus.length);
  let dirKept = '';
  try {
    const root = new Api(server.url, ROOT_TOKEN);
    const seeded = await seed(root, server.dbFile);
    console.error(`seeded in ${seeded.seconds.toFixed(0)} s`);
    await sleep(1000);
    const { body: projectBody } = await root.call('GET', `/projects/${seeded.app}`);
    const bodyBytes = Buffer.byteLength(JSON.stringify(projectBody));
    const m = seeded.member.token;

    const reads: Scenario[] = [
      { endpoint: 'GET /projects/:id', who: 'admin', token: ROOT_TOKEN, path: `/api/v4/projects/${seeded.app}`, connections: 50 },
      { endpoint: 'GET /projects/:id', who: 'member', token: m, path: `/api/v4/projects/${seeded.app}`, connections: 50 },
      {
        endpoint: 'GET /projects/:id/repository/files/:path',
        who: 'member',
        token: m,
        path: `/api/v4/projects/${seeded.app}/repository/files/README.md?ref=master`,
        connections: 50,
      },
      { endpoint: 'GET /projects/:id/repository/tree', who: 'member', token: m, path: `/api/v4/projects/${seeded.app}/repository/tree?ref=master`, connections: 50 },
    ].filter(selected);
    const lists: Scenario[] = [
      { endpoint: 'GET /projects?per_page=100', who: 'admin', token: ROOT_TOKEN, path: '/api/v4/projects?per_page=100', connections: 10, alone: true },
      { endpoint: 'GET /projects?per_page=100', who: 'member', token: m, path: '/api/v4/projects?per_page=100', connections: 10, alone: true },
      { endpoint: 'GET /projects/:id/issues?per_page=100', who: 'member', token: m, path: `/api/v4/projects/${seeded.tracker}/issues?per_page=100`, connections: 10, alone: true },
      {
        endpoint: 'GET /projects/:id/merge_requests?per_page=100',
        who: 'member',
        token: m,
        path: `/api/v4/projects/${seeded.tracker}/merge_requests?per_page=100`,
        connections: 10,
        alone: true,
      },
    ].filter(selected);

    const bare = await withBareKoa(projectBody, (url) => measure(url, { endpoint: 'bare Koa, fixed JSON body', who: '-', path: '/', connections: 50 }));
    // Each list's ceiling: bare Koa answering the very page Wharf answers (its size decides
    // what the loopback and the client can carry: a 140 KB body is far from a 2 KB one), once
    // serialised on every request, once sent as kept bytes (the transfer alone).
    const listCeilings: { bytes: number; bare: Result; bareBytes: Result }[] = [];
    for (const s of lists) {
      const { body } = await new Api(server.url, s.token).call('GET', s.path.replace('/api/v4', ''));
      const row = { who: '-', path: '/', connections: s.connections };
      const bare = await withBareKoa(body, (url) => measure(url, { endpoint: 'bare Koa, the same page', ...row }));
      const bareBytes = await withBareKoa(body, (url) => measure(url, { endpoint: 'bare Koa, the same page as bytes', ...row }), true);
      listCeilings.push({ bytes: Buffer.byteLength(JSON.stringify(body)), bare, bareBytes });
    }
    const readResults: Result[] = [];
    for (const s of reads) readResults.push(await measure(server.url, s));
    const listRun = await withRssPeak(server.child.pid, async () => {
      const out: Result[] = [];
      for (const s of lists) out.push(await measure(server.url, s));
      return out;
    });
    const rssAfter = treeRssMb(server.child.pid);

    // The same reads with one worker, on the same data.
    dirKept = server.dir;
    const compare = [reads[0], lists.find((s) => s.endpoint.includes('issues'))].filter((s): s is Scenario => !!s);
    let single: Result[] = [];
    if (workers !== '1' && compare.length) {
      await stopKeeping(server);
      const one = await bootServer({ dir: dirKept, db: server.dbFile, env: { WHARF_WORKERS: '1' } });
      try {
        for (const s of compare) single.push(await measure(one.url, { ...s, alone: false }));
      } finally {
        await one.stop();
      }
    }

    const loadAfter = os.loadavg();
    const lines: string[] = [
      ...preamble('# Wharf against bare Koa'),
      `- Command: \`node dist/bench/ceiling.js\` (autocannon in this process, no pipelining; ${SETTINGS.duration} s per row after ${SETTINGS.warmup} s of warm-up)`,
      `- Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)} (other work on the ${cpus.length} cores lowers every figure; the ratios are measured in the same run)`,
      `- Wharf: WHARF_WORKERS=${workers}, WHARF_LIST_CACHE_MB=${process.env.WHARF_LIST_CACHE_MB ?? '32 (default)'}; data: ${SETTINGS.issues} issues and ${SETTINGS.mrs} merge requests in one private project, ${SETTINGS.projects} projects; the member is a developer of the projects' group`,
      `- Response body of the project read: ${bodyBytes} bytes (bare Koa answers the same object)`,
      '',
      '| endpoint | as | conns | req/s | p50 ms | p99 ms | of bare Koa | goal |',
      '|---|---|---:|---:|---:|---:|---:|---|',
      `| bare Koa, fixed JSON body | - | 50 | ${fmt(bare.rps)} | ${ms(bare.p50)} | ${ms(bare.p99)} | 100% | |`,
    ];
    for (const r of readResults) {
      const ratio = (100 * r.rps) / bare.rps;
      const goal = r.s.endpoint === 'GET /projects/:id' ? '≥ 25%, p99 < 20 ms' : '≥ 25%';
      const met = ratio >= 25 && (r.s.endpoint !== 'GET /projects/:id' || r.p99 < 20);
      lines.push(`| \`${r.s.endpoint}\` | ${r.s.who} | 50 | ${fmt(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ratio.toFixed(1)}% | ${goal}: ${met ? 'met' : '**not met**'} |`);
    }
    lines.push(
      '',
      '| list, per_page=100 | as | conns | req/s | p50 ms | p99 ms | alone: p50 ms | p99 ms | page bytes | bare Koa, same page: req/s | same page as bytes: req/s | of it | goal |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    listRun.value.forEach((r, i) => {
      const met = r.rps >= 1000 && (r.alone?.p50 ?? Infinity) < 10;
      const { bytes, bare: ceiling, bareBytes } = listCeilings[i];
      lines.push(
        `| \`${r.s.endpoint}\` | ${r.s.who} | 10 | ${fmt(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.alone?.p50)} | ${ms(r.alone?.p99)} | ${bytes} | ${fmt(ceiling.rps)} | ${fmt(bareBytes.rps)} | ${((100 * r.rps) / bareBytes.rps).toFixed(0)}% | ≥ 1,000 req/s, alone p50 < 10 ms: ${met ? 'met' : '**not met**'} |`,
      );
    });
    if (single.length) {
      lines.push('', `| WHARF_WORKERS | endpoint | as | conns | req/s with ${workers} | req/s with 1 | ${workers} ÷ 1 |`, '|---|---|---|---:|---:|---:|---:|');
      for (const r of single) {
        const many = [...readResults, ...listRun.value].find((x) => x.s.path === r.s.path && x.s.who === r.s.who);
        if (many) lines.push(`| ${workers} vs 1 | \`${r.s.endpoint}\` | ${r.s.who} | ${r.s.connections} | ${fmt(many.rps)} | ${fmt(r.rps)} | ${(many.rps / r.rps).toFixed(2)} |`);
      }
    }
    lines.push('', '| memory and start-up | measured | goal |', '|---|---|---|', ...startUpRows(startups));
    lines.push(
      `| RSS peak under the list rows (every process) | ${listRun.perProcess.join(' + ')} = ${listRun.peak} MB | < 300 MB: ${listRun.peak < 300 ? 'met' : '**not met**'} |`,
    );
    lines.push(`| RSS after the runs | ${rssAfter.join(' + ')} MB | |`);
    const bad = [bare, ...readResults, ...listRun.value, ...single].filter((r) => r.errors > 0);
    if (bad.length) lines.push('', `**Errors or non-2xx answers in: ${bad.map((r) => `${r.s.endpoint} as ${r.s.who}`).join(', ')}**`);
    const report = lines.join('\n') + '\n';
    console.log(`\n${report}`);
    writeResults('ceiling.md', report);
    if (bad.length) process.exitCode = 1;
  } finally {
    await server.stop();
    if (dirKept) fs.rmSync(dirKept, { recursive: true, force: true });
  }
}

/** Stops a server started by bootServer but keeps its folder (served again with another setting). */
async function stopKeeping(server: Server): Promise<void> {
  const child = server.child;
  if (child.exitCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([gone, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

if (isMain(import.meta.url)) runMain(main);
