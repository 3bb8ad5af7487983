// Start-up time and idle memory: a fresh server on an empty database, from spawning
// `node dist/src/main.js` to its first answer to `/-/readiness` (polled every 5 ms, as an
// orchestrator would), then the RSS of each of its processes after 2 s idle. Run alone with
// `node dist/bench/startup.js` (BENCH_STARTUP_RUNS, default 5, per worker count: 1 and the
// core count); bench/ceiling.ts runs it first.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { intEnv, isMain, MAIN, runMain, serverEnv, sleep, treeRssMb } from './harness.js';
import { freePort } from '../test/helpers/free_port.js';

export async function waitReady(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited during start');
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready in ${deadlineMs} ms`);
    await sleep(5);
  }
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([gone, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export interface StartUp {
  workers: string;
  ms: number[];
  idleRss: number[][];
}

/** Empty database → answering readiness, `runs` times; RSS of each process after 2 s idle. */
export async function startUp(workers: string, runs: number): Promise<StartUp> {
  const out: StartUp = { workers, ms: [], idleRss: [] };
  for (let i = 0; i < runs; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-start-'));
    const port = await freePort();
    // SSH is served as by default, on a free port (another server may hold 2222).
    const sshPort = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [MAIN], {
      env: serverEnv(port, dir, path.join(dir, 'db', 'wharf.sqlite3'), { WHARF_WORKERS: workers, WHARF_SSH_PORT: String(sshPort) }),
      stdio: 'ignore',
    });
    try {
      await waitReady(`${url}/-/readiness`, child, 30_000);
      out.ms.push(Number(process.hrtime.bigint() - started) / 1e6);
      await sleep(2000);
      out.idleRss.push(treeRssMb(child.pid));
    } finally {
      await stopChild(child);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Markdown rows: start-up median and idle RSS of the median run, against the goals. */
export function startUpRows(startups: StartUp[]): string[] {
  const lines: string[] = [];
  for (const st of startups) {
    const ms = median(st.ms);
    lines.push(
      `| start-up, empty database → answering, WHARF_WORKERS=${st.workers} (median of ${st.ms.length}: ${st.ms.map((m) => m.toFixed(0)).join(', ')}) | ${ms.toFixed(0)} ms | < 1,000 ms: ${ms < 1000 ? 'met' : '**not met**'} |`,
    );
    const perProcess = [...st.idleRss].sort((a, b) => a.reduce((x, y) => x + y, 0) - b.reduce((x, y) => x + y, 0))[Math.floor(st.idleRss.length / 2)] ?? [];
    const largest = Math.max(...perProcess);
    lines.push(
      `| RSS idle after start, WHARF_WORKERS=${st.workers} (primary first, then workers) | ${perProcess.join(' + ')} MB | < 80 MB a process: ${largest < 80 ? 'met' : '**not met**'} |`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const runs = intEnv('BENCH_STARTUP_RUNS', 5);
  const startups = [await startUp('1', runs), await startUp(String(os.cpus().length), runs)];
  console.log(['| memory and start-up | measured | goal |', '|---|---|---|', ...startUpRows(startups)].join('\n'));
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

if (isMain(import.meta.url)) runMain(main);
