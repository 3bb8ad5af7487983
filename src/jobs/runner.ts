// The job runner of one process (Sidekiq's worker process): claims due jobs of the kinds it
// knows, runs at most `concurrency` at a time, keeps their leases alive with a heartbeat, and
// queues the periodic jobs. Started by src/server.ts; several processes may run one each on
// the same database (src/store/job_leases.ts says why a job is still taken once).
//
// - Pickup: a job queued by this process wakes the runner as soon as its transaction commits
//   (store/job_queue.ts onJobsEnqueued); jobs queued elsewhere are found by a poll every
//   `pollMs` (a read: an idle poll takes no write lock). A finished job frees its slot at once.
// - Stop: no new claims; running jobs get `shutdownMs` to finish; those still running then are
//   aborted (their signal) and handed back to the queue, so another process takes them at
//   once. A kill -9 skips all that: their leases expire and they run again elsewhere.
// - `perform()` runs one job now in the caller's flow (services use it through deps.jobs);
//   `drain()` runs every due job until none is left (tests, benches).
import crypto from 'node:crypto';
import os from 'node:os';
import type { Deps } from '../deps.js';
import { newJobRow, onJobsEnqueued, type EnqueueOptions, type JobOutcome, type JobPerformer, type JobRow } from '../store/job_queue.js';
import { anyDue, claimJobs, insertClaimedJob, releaseJobs, renewLeases } from '../store/job_leases.js';
import { beat, removeProcess } from '../store/job_processes.js';
import { executeJob } from './execute.js';
import { jobDefinition, kindsOfLane, laneOf, LANES, maxAttemptsOf, registeredKinds, type Lane } from './registry.js';
import { scheduleCrons } from './scheduler.js';
import { queueScheduledBackup } from '../services/backup/schedule.js';

export interface RunnerOptions {
  /** Jobs run at once by the background loop; 0: this process claims none by itself. */
  concurrency: number;
  /** Webhook deliveries run at once besides them (their own lane), when concurrency > 0. */
  deliveryConcurrency: number;
  /** How long a claim holds a job without a heartbeat. */
  leaseMs: number;
  /** How often other processes' jobs are looked for. */
  pollMs: number;
  /** How long a stop waits for running jobs. */
  shutdownMs: number;
  /** First periodic-job check after start (then every minute). */
  cronDelayMs?: number;
}

const CRON_TICK_MS = 60_000;

interface Running {
  row: JobRow;
  lane: Lane;
  done: Promise<JobOutcome>;
  abort: AbortController;
}

export class JobRunner implements JobPerformer {
  /** This process in `job_processes` and in `jobs.locked_by`. */
  readonly id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  readonly startedAt = new Date().toISOString();
  private readonly running = new Map<number, Running>();
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;
  private started = false;
  private stopping: Promise<void> | null = null;
  private ticking: Promise<void> | null = null;
  private tickAgain = false;

  constructor(
    private readonly deps: Deps,
    readonly options: RunnerOptions,
  ) {}

  /** Jobs this process is running now. */
  get busy(): number {
    return this.running.size;
  }

  /** The queues of the kinds this process can run. */
  queues(): string[] {
    return [...new Set(registeredKinds().map((k) => jobDefinition(k)!.queue))].sort();
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.heartbeat();
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.options.pollMs, () => this.tick());
    every(Math.max(50, Math.min(5_000, Math.floor(this.options.leaseMs / 3))), () => void this.heartbeat());
    const first = setTimeout(() => {
      void this.crons();
      every(CRON_TICK_MS, () => void this.crons());
    }, this.options.cronDelayMs ?? CRON_TICK_MS);
    first.unref();
    this.timers.push(first);
    this.unsubscribe = onJobsEnqueued(() => this.tick());
    this.tick();
  }

  /** Queues the periodic jobs whose current period has none yet. */
  async crons(at = new Date()): Promise<void> {
    try {
      await scheduleCrons(this.deps.db, at);
      await queueScheduledBackup(this.deps.db, this.deps.config, at);
    } catch (err) {
      this.deps.log.warn({ err }, 'periodic jobs could not be queued');
    }
  }

  private async heartbeat(): Promise<void> {
    try {
      await beat(this.deps.db, {
        id: this.id,
        hostname: os.hostname(),
        pid: process.pid,
        tag: 'wharf',
        startedAt: this.startedAt,
        queues: this.queues(),
        labels: [],
        // Sidekiq's concurrency: the jobs it may run at once (deliveries have slots of their own).
        concurrency: this.options.concurrency > 0 ? this.options.concurrency + this.options.deliveryConcurrency : 0,
      });
      await renewLeases(this.deps.db, this.id, [...this.running.keys()], this.options.leaseMs);
    } catch (err) {
      this.deps.log.warn({ err }, 'job heartbeat failed');
    }
  }

  /** Fills free slots with due jobs; calls made meanwhile coalesce into one more pass. */
  private tick(): void {
    if (!this.started || this.stopping || this.options.concurrency <= 0) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = this.fill(this.options.concurrency)
      .then(() => undefined)
      .catch((err) => this.deps.log.warn({ err }, 'claiming jobs failed'))
      .finally(() => {
        this.ticking = null;
        if (this.tickAgain) {
          this.tickAgain = false;
          this.tick();
        }
      });
  }

  /** Claims due jobs for the free slots of each lane; answers how many were claimed. */
  private async fill(concurrency: number, at?: Date, deliveries = this.options.deliveryConcurrency): Promise<number> {
    let claimed = 0;
    for (const lane of LANES) {
      const limit = lane === 'deliveries' ? deliveries : concurrency;
      const free = limit - [...this.running.values()].filter((r) => r.lane === lane).length;
      if (free <= 0) continue;
      const kinds = kindsOfLane(lane);
      if (!(await anyDue(this.deps.db, kinds, at))) continue;
      const rows = await claimJobs(this.deps.db, { owner: this.id, limit: free, kinds, leaseMs: this.options.leaseMs, at, maxAttemptsOf });
      for (const row of rows) void this.launch(row, at);
      claimed += rows.length;
    }
    return claimed;
  }

  private launch(row: JobRow, at?: Date): Promise<JobOutcome> {
    const abort = new AbortController();
    const done = executeJob(this.deps, this.id, row, abort.signal, at).finally(() => {
      this.running.delete(row.id);
      this.tick();
    });
    this.running.set(row.id, { row, lane: laneOf(row.kind), done, abort });
    return done;
  }

  async perform(kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<JobOutcome> {
    const row = await insertClaimedJob(this.deps.db, newJobRow(kind, payload, opts, new Date()), this.id, this.options.leaseMs);
    if (!row) return { id: null, state: 'skipped' };
    return this.launch(row);
  }

  /**
   * Runs due jobs (as of `at`, default now) in this process until none is due and none of
   * this process's runs is left; jobs queued meanwhile are run too.
   */
  async drain(opts: { at?: Date; concurrency?: number } = {}): Promise<void> {
    const concurrency = Math.max(1, opts.concurrency ?? this.options.concurrency);
    for (;;) {
      await this.ticking;
      const claimed = await this.fill(concurrency, opts.at, Math.max(1, this.options.deliveryConcurrency));
      if (!claimed && !this.running.size) {
        if (!(await anyDue(this.deps.db, registeredKinds(), opts.at))) return;
        await new Promise((r) => setTimeout(r, 10)); // claimed meanwhile by a tick or another process
        continue;
      }
      if (this.running.size) await Promise.race([...this.running.values()].map((r) => r.done));
    }
  }

  /** Stops claiming, waits for running jobs up to shutdownMs, hands back the rest. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.unsubscribe?.();
    await this.ticking;
    const left = [...this.running.values()];
    if (left.length) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        Promise.allSettled(left.map((r) => r.done)).then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.options.shutdownMs))),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        const ids = [...this.running.keys()];
        this.deps.log.warn({ jobs: ids }, 'stopping: jobs still running are handed back to the queue');
        // Handed back first, then aborted: a handler that ends on its abort must not record a
        // failed attempt (and a retry hours away) before the job is back in the queue.
        await releaseJobs(this.deps.db, this.id, ids).catch((err) => this.deps.log.warn({ err }, 'jobs not handed back; their leases will expire'));
        for (const r of this.running.values()) r.abort.abort();
      }
    }
    await removeProcess(this.deps.db, this.id).catch(() => undefined);
  }
}
