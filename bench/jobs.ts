// The durable job queue: throughput of no-op jobs and pickup latency (from the commit that
// queues a job to its handler starting), in the process that queued it and across processes.
//
//   node dist/bench/jobs.js            (after `npx tsc -p tsconfig.json`)
//   BENCH_JOBS=2000 BENCH_SAMPLES=50 node dist/bench/jobs.js
//
// 1. In process: Wharf started in this process (startServer) on a temporary SQLite file with
//    WHARF_JOB_CONCURRENCY = 1, 5, 20; BENCH_JOBS (5,000) no-op jobs queued in one transaction;
//    throughput = jobs / (time from the commit to the last job recorded as succeeded). Pickup:
//    BENCH_SAMPLES (200) jobs queued one at a time, each timed from the enqueue call to its
//    handler starting (the runner is woken by the commit).
// 2. Across processes: Wharf in 1 or 2 child processes (concurrency 5 each) on one SQLite file,
//    jobs queued by this process; throughput from the rows' own timestamps (first start to last
//    finish); pickup = started_at − created_at (at most 50 samples, each queued at a random
//    moment of the poll period), with the default poll (1,000 ms) and 100 ms.
// Prints a markdown table and writes bench/results/jobs.md.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { openDb, type Db } from '../src/store/db.js';
import { enqueueJob } from '../src/store/job_queue.js';
import { registerJob } from '../src/jobs/registry.js';
import { intEnv, MAIN, preamble, runMain, serverEnv, sleep, writeResults } from './harness.js';
import { freePort } from '../test/helpers/free_port.js';

const JOBS = intEnv('BENCH_JOBS', 5000);
const SAMPLES = intEnv('BENCH_SAMPLES', 200);

const pings = new Map<number, (t: bigint) => void>();
registerJob<{ n: number }>('bench_ping', {
  queue: 'default',
  async handler(_deps, p) {
    pings.get(p.n)?.(process.hrtime.bigint());
  },
});

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

async function queueMany(db: Db, n: number): Promise<number[]> {
  const ids: number[] = [];
  await db.transaction(async (tx) => {
    for (let i = 0; i < n; i++) ids.push((await enqueueJob(tx, 'noop', {}))!);
  });
  return ids;
}

async function waitDone(db: Db, ids: number[]): Promise<void> {
  const last = ids[ids.length - 1];
  for (;;) {
    const row = await db('jobs').where('id', '>=', ids[0]).andWhere('id', '<=', last).whereNot('state', 'succeeded').first('id');
    if (!row) return;
    await sleep(5);
  }
}

async function inProcess(concurrency: number): Promise<{ perSecond: number; p50: number; p99: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-jobs-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    WHARF_DB: path.join(dir, 'db', 'wharf.sqlite3'),
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_ROOT_TOKEN: 'bench-root-token-0123456789abcdef',
    WHARF_JOB_CONCURRENCY: String(concurrency),
    WHARF_SSH_PORT: '0',
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  try {
    const db = server.deps.db;
    const t0 = process.hrtime.bigint();
    const ids = await queueMany(db, JOBS);
    const committed = process.hrtime.bigint();
    await waitDone(db, ids);
    const seconds = Number(process.hrtime.bigint() - committed) / 1e9;
    console.error(`  in process, concurrency ${concurrency}: queued ${JOBS} in ${(Number(committed - t0) / 1e6).toFixed(0)} ms, ran them in ${seconds.toFixed(2)} s`);

    const latencies: number[] = [];
    for (let n = 0; n < SAMPLES; n++) {
      const started = new Promise<bigint>((resolve) => pings.set(n, resolve));
      const t = process.hrtime.bigint();
      await enqueueJob(db, 'bench_ping', { n });
      latencies.push(Number((await started) - t) / 1e6);
      pings.delete(n);
    }
    await server.jobs.drain();
    return { perSecond: JOBS / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99) };
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function startChild(dir: string, env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    env: serverEnv(port, dir, path.join(dir, 'db', 'wharf.sqlite3'), env),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/-/readiness`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('a child server did not become ready');
    await sleep(100);
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([gone, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function acrossProcesses(processes: number, pollMs: number): Promise<{ perSecond: number; p50: number; p99: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-jobs-'));
  const children: ChildProcess[] = [];
  let db: Db | null = null;
  try {
    for (let i = 0; i < processes; i++) children.push(await startChild(dir, { WHARF_JOB_CONCURRENCY: '5', WHARF_JOB_POLL_MS: String(pollMs) }));
    db = openDb(path.join(dir, 'db', 'wharf.sqlite3'), 1);
    const ids = await queueMany(db, JOBS);
    await waitDone(db, ids);
    const span = await db('jobs').whereIn('state', ['succeeded']).where('id', '>=', ids[0]).min({ first: 'started_at' }).max({ last: 'finished_at' }).first();
    const seconds = (Date.parse(span!.last) - Date.parse(span!.first)) / 1000;
    console.error(`  ${processes} process(es), poll ${pollMs} ms: ran ${JOBS} in ${seconds.toFixed(2)} s`);

    const latencies: number[] = [];
    for (let n = 0; n < Math.min(SAMPLES, 50); n++) {
      const id = (await enqueueJob(db, 'noop', {}))!;
      let row: { state: string; created_at: string; started_at: string } | undefined;
      for (;;) {
        row = await db('jobs').where({ id }).first('state', 'created_at', 'started_at');
        if (row?.state === 'succeeded') break;
        await sleep(2);
      }
      latencies.push(Date.parse(row!.started_at) - Date.parse(row!.created_at));
      await sleep(Math.floor(Math.random() * pollMs)); // not in step with the poll
    }
    return { perSecond: JOBS / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99) };
  } finally {
    await db?.destroy();
    for (const c of children) await stopChild(c);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const c of [1, 5, 20]) {
    const r = await inProcess(c);
    rows.push(`| in process, concurrency ${c} | ${fmt(r.perSecond)} | ${fmt(r.p50)} | ${fmt(r.p99)} |`);
  }
  for (const [processes, poll] of [
    [1, 1000],
    [1, 100],
    [2, 1000],
  ]) {
    const r = await acrossProcesses(processes, poll);
    rows.push(`| ${processes} child process${processes > 1 ? 'es' : ''} × concurrency 5, poll ${poll} ms | ${fmt(r.perSecond)} | ${fmt(r.p50)} | ${fmt(r.p99)} |`);
  }
  const report = [
    ...preamble('# Job queue benchmark'),
    `- ${JOBS} no-op jobs per throughput row, ${SAMPLES} pickup samples in process (${Math.min(SAMPLES, 50)} across processes); load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    '',
    '| runner | no-op jobs/s | pickup p50 ms | pickup p99 ms |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
  console.log(`\n${report}`);
  writeResults('jobs.md', report);
}

runMain(main);
