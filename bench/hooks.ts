// Webhooks: what 5 push hooks cost a push, and how soon their deliveries arrive.
//
//   node dist/bench/hooks.js                (after `npx tsc -p tsconfig.json`)
//   BENCH_PUSHES=100 node dist/bench/hooks.js
//   BENCH_JOB_CONCURRENCY=0 node dist/bench/hooks.js   (deliveries left queued: the push path alone)
//
// Wharf runs in this process (temporary SQLite file, WHARF_JOB_CONCURRENCY=4, local hook
// requests allowed); a receiver on 127.0.0.1 answers 200 at once. For a project with no hook,
// then one with 5 push hooks, BENCH_PUSHES (40) one-commit pushes are made one after another
// with the real `git push` over HTTP; pushes/s = pushes / the time spent in `git push` (the
// local commits are made untimed). Delivery latency: from the commit of the push (the
// push's events and deliveries are committed by then) — measured from the push event's
// created_at, the moment of the transaction — to the receiver getting each delivery (5 per push).
// Prints a markdown table and writes bench/results/hooks.md.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { intEnv, preamble, ROOT_TOKEN, runMain, writeResults } from './harness.js';
import { gitAsync, msSince, now } from './timing.js';

const PUSHES = intEnv('BENCH_PUSHES', 40);
const HOOKS = 5;
/** Job workers of the server; 0 leaves the deliveries queued (the push path's own cost). */
const WORKERS = intEnv('BENCH_JOB_CONCURRENCY', 4);
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.com', GIT_TERMINAL_PROMPT: '0' };
const git = (args: string[], cwd?: string) => gitAsync(['-c', 'credential.helper=', ...args], { cwd, env: ENV });

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] : NaN);

const ms = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(0));

async function api(server: RunningServer, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}/api/v4${p}`, {
    method,
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

interface Run {
  pushesPerSecond: number;
  latencies: number[];
}

async function pushes(server: RunningServer, dir: string, name: string, hookUrl: string | null, arrivals: Map<string, number[]>): Promise<Run> {
  const project = await api(server, 'POST', '/projects', { name });
  if (hookUrl) for (let i = 0; i < HOOKS; i++) await api(server, 'POST', `/projects/${project.id}/hooks`, { url: `${hookUrl}/${i}`, push_events: true });
  const work = path.join(dir, `work-${name}`);
  await git(['init', '-q', work]);
  const remote = `${server.url.replace('//', `//root:${ROOT_TOKEN}@`)}/${project.path_with_namespace}.git`;
  const pushedAt = new Map<string, number>();
  let busyMs = 0;
  for (let i = 0; i < PUSHES; i++) {
    fs.writeFileSync(path.join(work, 'file.txt'), `change ${i}\n`);
    await git(['add', '-A'], work);
    await git(['commit', '-q', '-m', `change ${i}`], work);
    const sha = await git(['rev-parse', 'HEAD'], work);
    const t = now();
    await git(['push', '-q', remote, 'HEAD:master'], work);
    busyMs += msSince(t);
    pushedAt.set(sha, 0);
  }
  const latencies: number[] = [];
  if (hookUrl && WORKERS > 0) {
    // From the commit of the push's transaction (its push event's time) to each arrival.
    const rows: { commit_to: string; created_at: string }[] = await server.deps
      .db('push_event_payloads as p')
      .join('events as e', 'e.id', 'p.event_id')
      .where('e.project_id', project.id)
      .select('p.commit_to', 'e.created_at');
    for (const r of rows) pushedAt.set(r.commit_to, Date.parse(r.created_at));
    const deadline = performance.now() + 120_000;
    const expected = PUSHES * HOOKS;
    const count = () => [...pushedAt.keys()].reduce((n, sha) => n + (arrivals.get(sha)?.length ?? 0), 0);
    while (count() < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    for (const [sha, at] of pushedAt) for (const got of arrivals.get(sha) ?? []) latencies.push(got - at);
  }
  return { pushesPerSecond: PUSHES / (busyMs / 1000), latencies };
}

async function main(): Promise<void> {
  const arrivals = new Map<string, number[]>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const list = arrivals.get(body.after) ?? [];
        list.push(at);
        arrivals.set(body.after, list);
      } catch {
        // not a push payload
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-hooks-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    WHARF_DB: path.join(dir, 'db', 'wharf.sqlite3'),
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_ROOT_TOKEN: ROOT_TOKEN,
    WHARF_JOB_CONCURRENCY: String(WORKERS),
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  try {
    await api(server, 'PUT', '/application/settings', { allow_local_requests_from_hooks_and_services: true });
    const none = await pushes(server, dir, 'no-hooks', null, arrivals);
    const five = await pushes(server, dir, 'five-hooks', hookUrl, arrivals);
    const lines = [
      ...preamble('Webhooks: pushes with 5 push hooks beside none; delivery latency'),
      `${PUSHES} one-commit pushes with \`git push\` over HTTP, one after another; Wharf in process (SQLite, ${WORKERS} job workers); receiver on 127.0.0.1.`,
      '',
      '| project | pushes/s | deliveries | latency p50 (ms) | latency p99 (ms) |',
      '|---|---:|---:|---:|---:|',
      `| no hooks | ${none.pushesPerSecond.toFixed(1)} | 0 | – | – |`,
      `| 5 push hooks | ${five.pushesPerSecond.toFixed(1)} | ${five.latencies.length}/${PUSHES * HOOKS} | ${ms(pct(five.latencies, 50))} | ${ms(pct(five.latencies, 99))} |`,
      '',
      "Latency: from the push's transaction (its push event's `created_at`, wall clock) to the receiver reading the delivery.",
    ];
    const text = lines.join('\n');
    console.log(text);
    writeResults('hooks.md', `${text}\n`);
  } finally {
    await server.close();
    receiver.closeAllConnections();
    receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);
