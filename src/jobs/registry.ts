// The kinds of job this program can run, and the periodic ones (GitLab's Sidekiq workers and
// its cron schedule). A kind is registered once at import time by its own file under src/jobs/
// (src/jobs/kinds.ts imports them all); the runner only claims kinds registered here, so a
// process of an older version never takes a job it cannot run. How to add one: see the header
// of src/store/job_queue.ts.
import type { Deps } from '../deps.js';
import { declareJobQueue, type EnqueueOptions, type QueueName } from '../store/job_queue.js';

/** Sidekiq's default: 25 retries. */
const DEFAULT_MAX_ATTEMPTS = 25;

interface JobContext {
  jobId: number;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** Stores a one-line state on the job row (status endpoints read it) and logs it. */
  progress(message: string): Promise<void>;
  /** Aborted when the process stops and cannot wait any longer: stop child processes then. */
  signal: AbortSignal;
}

/**
 * Which slots a kind's jobs take: `default` ones share WHARF_JOB_CONCURRENCY; `deliveries`
 * (webhook POSTs, waiting on other machines) have slots of their own (WHARF_HOOK_CONCURRENCY),
 * so that slow receivers never hold the jobs of the instance, nor those the other way round.
 */
export type Lane = 'default' | 'deliveries';

export const LANES: readonly Lane[] = ['default', 'deliveries'];

export interface JobDefinition<P = any> {
  queue: QueueName;
  /** Attempts before the job is recorded as failed (default 25). */
  maxAttempts?: number;
  /** Its slots (default `default`). */
  lane?: Lane;
  /** The delay before each retry (the last one repeats); default: Sidekiq's backoff (execute.ts). */
  retryDelaysMs?: readonly number[];
  /** Does the work; throws to fail the attempt; what it returns is stored as the result. */
  handler(deps: Deps, payload: P, ctx: JobContext): Promise<unknown>;
}

export interface CronDefinition {
  /** The kind queued once per period (registered with registerJob). */
  kind: string;
  /** The period: one job per `everyMs` window of wall-clock time, across all processes. */
  everyMs: number;
  payload?: unknown;
}

const jobs = new Map<string, JobDefinition>();
const crons = new Map<string, CronDefinition>();

export function registerJob<P = any>(kind: string, def: JobDefinition<P>): void {
  if (jobs.has(kind)) throw new Error(`job kind registered twice: ${kind}`);
  jobs.set(kind, def as JobDefinition);
  declareJobQueue(kind, def.queue);
}

export function registerCron(name: string, def: CronDefinition): void {
  if (crons.has(name)) throw new Error(`periodic job registered twice: ${name}`);
  crons.set(name, def);
}

export function jobDefinition(kind: string): JobDefinition | undefined {
  return jobs.get(kind);
}

export function registeredKinds(): string[] {
  return [...jobs.keys()];
}

/** The kinds whose jobs take `lane`'s slots. */
export function kindsOfLane(lane: Lane): string[] {
  return [...jobs.entries()].filter(([, def]) => (def.lane ?? 'default') === lane).map(([kind]) => kind);
}

export function laneOf(kind: string): Lane {
  return jobs.get(kind)?.lane ?? 'default';
}

export function registeredCrons(): [string, CronDefinition][] {
  return [...crons.entries()];
}

export function maxAttemptsOf(kind: string): number {
  return jobs.get(kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
}

/** The queue options of a periodic job's run for the window containing `at`. */
export function cronRun(name: string, def: CronDefinition, at: Date): EnqueueOptions {
  const period = Math.floor(at.getTime() / def.everyMs);
  return { queue: 'cronjob', uniqueKey: `cron:${name}:${period}`, uniqueUntil: 'pruned', runAt: at };
}
