// WHARF_WORKERS=N: N processes serve the port (node:cluster; the primary hands each new
// connection to a worker in turn), sharing the SQLite file (WAL: readers never wait for the
// writer), the repositories (file locks) and nothing else. The primary only starts, watches
// and stops workers (and relays a scrape of /-/metrics to all of them: services/metrics/cluster.ts):
// it loads none of the application, so it stays small.
//
// The first worker sets up (migrations, root, recovery of repository moves cut short by a
// crash) and runs the daily jobs; the others start once it is ready, so none of them serves
// before the store is migrated or recovers a move another is making. A worker that dies is
// replaced after a second (the replacement of the jobs worker runs the jobs); one that exits
// before it was ready (a port taken, a database it cannot open) stops them all, with status 1.
//
// What a worker caches (tokens, list totals, parsed git objects) is either keyed by content
// (git objects by id) or checked against the cache epochs once per request
// (src/store/cache_epochs.ts), so a change made through one worker is seen by all of them
// on their next request.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { MetricsRelay } from './services/metrics/cluster.js';

type WorkerRole = 'first' | 'serve';

interface Spec {
  role: WorkerRole;
  jobs: boolean;
}

const RESPAWN_DELAY_MS = 1000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * glibc gives each thread that allocates (libuv's pool runs the SQLite queries, V8 its GC and
 * compilers) an arena of its own, up to 8 per core, and keeps what is freed in each: a worker
 * that served the list benchmarks held 190 MB, 147 MB with two arenas, at the same speed
 * (the goal: under 300 MB). Workers get two unless MALLOC_ARENA_MAX is set; glibc reads it
 * only at a process's start, so `npm start` sets it for a single process too.
 */
function mallocArenas(): string {
  return process.env.MALLOC_ARENA_MAX || '2';
}

function say(message: string): void {
  process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: message })}\n`);
}

/** The primary: forks the workers, replaces those that die, stops them all on SIGINT/SIGTERM. */
export function runPrimary(config: Config): void {
  const specs = new Map<Worker, Spec>();
  /** Workers that finished starting (HTTP, SSH, jobs): see READY. */
  const ready = new WeakSet<Worker>();
  let stopping = false;
  const metrics = new MetricsRelay(() => [...specs.keys()].filter((w) => ready.has(w)));

  const fork = (spec: Spec): Worker => {
    const worker = cluster.fork({ WHARF_WORKER_ROLE: spec.role, WHARF_WORKER_JOBS: spec.jobs ? '1' : '0', MALLOC_ARENA_MAX: mallocArenas() });
    specs.set(worker, spec);
    worker.on('message', (message: unknown) => {
      if (metrics.onMessage(worker, message)) return;
      if ((message as { wharf?: string } | null)?.wharf === READY) {
        ready.add(worker);
        if (spec.role === 'first' && !started) {
          started = true;
          for (let i = 1; i < config.workers; i++) fork({ role: 'serve', jobs: false });
        }
      }
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const spec = specs.get(worker);
    specs.delete(worker);
    metrics.forget(worker);
    if (stopping || !spec) {
      if (stopping && specs.size === 0) process.exit(0);
      return;
    }
    if (!ready.has(worker)) {
      // It could not start (a port taken, a database it cannot open): another would not either.
      say(`a worker exited (${signal ?? code}) before it was ready; stopping`);
      stopAll(1);
      return;
    }
    say(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(() => {
      if (!stopping) fork({ role: 'serve', jobs: spec.jobs });
    }, RESPAWN_DELAY_MS).unref();
  });

  let started = false;
  fork({ role: 'first', jobs: true });

  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (specs.size === 0) process.exit(code);
    for (const worker of specs.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of specs.keys()) worker.process.kill('SIGKILL');
      process.exit(code);
    }, STOP_TIMEOUT_MS).unref();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopAll(0));
}

/** What a worker sends the primary once it serves everything it should (`workerReady`). */
const READY = 'ready';

/** In a worker: tells the primary that it started (a worker that exits before this stops them all). */
export function workerReady(): void {
  if (cluster.isWorker) process.send?.({ wharf: READY });
}

/** In a worker: its role and whether it runs the daily jobs (set by the primary). */
export function workerRole(env: NodeJS.ProcessEnv = process.env): Spec {
  return { role: env.WHARF_WORKER_ROLE === 'serve' ? 'serve' : 'first', jobs: env.WHARF_WORKER_JOBS !== '0' };
}

export function isPrimary(config: Config): boolean {
  return config.workers > 1 && cluster.isPrimary;
}
