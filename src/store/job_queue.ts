// The durable job queue: everything that runs after a response (statistics, merge request
// refresh, housekeeping, daily clean-ups, and webhooks, pipelines, exports, imports) is a row
// in `jobs`, as GitLab queued Sidekiq workers. A job survives a restart and a kill -9, is
// retried with backoff when it throws, is taken by exactly one process, and its failure is
// recorded. The runner (src/jobs/runner.ts) claims and runs jobs; this file is the part every
// layer may use: queueing one.
//
// HOW TO RUN SOMETHING AFTER THE RESPONSE
//
// 1. Register the kind once, in its own file under src/jobs/ that src/jobs/kinds.ts imports:
//
//      registerJob<{ hookId: number; eventId: number }>('web_hook', {
//        queue: 'web_hook',          // one of QueueName: GitLab's Sidekiq queue of the worker
//        maxAttempts: 4,             // optional, default 25 (Sidekiq's retry count)
//        async handler(deps, payload, ctx) {
//          ctx.progress('sending');  // optional: stored on the job row and written to the log
//          ...                       // throw to fail this attempt; return a JSON-able result
//        },
//      });
//
// 2. Queue it where the change is made, INSIDE the transaction that makes the change:
//
//      await deps.db.transaction(async (tx) => {
//        const eventId = await recordSomething(tx, ...);
//        await enqueueJob(tx, 'web_hook', { hookId, eventId });
//      });
//
//    The job exists exactly when the change commits (a rollback takes it away: no webhook for
//    a change that did not happen) and it runs after the commit, in this process or in
//    another one, never inside the transaction. Pass ids, not rows: the handler reads the
//    current state when it runs. Never call network or git work inside the transaction.
//
// 3. A handler runs AT LEAST once: a process killed mid-job has its lease expire and the job
//    runs again elsewhere (attempt 2). Make it idempotent (check state before acting, write
//    its effect and its "done" mark in one transaction) — the queue guarantees that a job is
//    recorded as succeeded exactly once and that two processes never hold it at once.
//
// Options: `runAt` delays it; `maxAttempts` overrides the kind's; `uniqueKey` makes it the
// only job with that key (enqueueJob then answers null when one already holds the key), held
// until the job `uniqueUntil` 'started' (coalescing: a second refresh queued while one waits
// is the same refresh), 'finished' (the default: one at a time, as GitLab's exclusive leases)
// or 'pruned' (for good: a daily run keyed by its day).
//
// To run a job at once and wait for it (the response must reflect it, yet a crash must not
// lose it), services call `deps.jobs.perform(kind, payload)` (JobPerformer below), outside
// any transaction. Tests wait for queued work with the runner's `drain()`.
import { EventEmitter } from 'node:events';
import { afterCommit, type Conn } from './db.js';
import { returnedId } from './ids.js';

/** GitLab 10.8's Sidekiq queues that Wharf's jobs run in (config/sidekiq_queues.yml). */
export const QUEUE_NAMES = [
  'default',
  'cronjob',
  'post_receive',
  'update_merge_requests',
  'project_cache',
  'git_garbage_collect',
  'pipeline_processing',
  'pipeline_creation',
  'pipeline_hooks',
  'project_export',
  'repository_import',
  'repository_fork',
  'web_hook',
  'system_hook_push',
  'mailers',
] as const;

export type QueueName = (typeof QUEUE_NAMES)[number];

type UniqueUntil = 'started' | 'finished' | 'pruned';

export interface EnqueueOptions {
  /** Default: the queue the kind was registered with (else `default`). */
  queue?: QueueName;
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Attempts before the job is recorded as failed (default: the kind's, else 25). */
  maxAttempts?: number;
  /** At most one job holds this key; enqueueJob answers null when another does. */
  uniqueKey?: string;
  /** How long the key is held (default 'finished'). */
  uniqueUntil?: UniqueUntil;
  /** Jobs with the same group key run one at a time (a webhook's deliveries). */
  groupKey?: string;
}

type JobState = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobRow {
  id: number;
  queue: string;
  kind: string;
  payload: string;
  state: JobState;
  attempts: number;
  max_attempts: number | null;
  run_at: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  locked_by: string | null;
  locked_until: string | null;
  unique_key: string | null;
  unique_until: UniqueUntil | null;
  /** Jobs of one group run one at a time (EnqueueOptions.groupKey). */
  group_key: string | null;
  progress: string | null;
  result: string | null;
  last_error: string | null;
}

/** How one run of a job ended (JobPerformer.perform). */
export interface JobOutcome {
  /** null when nothing ran: `uniqueKey` was held by another job ('skipped'). */
  id: number | null;
  /** 'queued' when the attempt failed and a retry is scheduled. */
  state: 'succeeded' | 'queued' | 'failed' | 'skipped';
  result?: unknown;
  error?: string;
}

/** What services may ask of the process's job runner (deps.jobs). */
export interface JobPerformer {
  /**
   * Queues the job already leased to this process and runs it at once, resolving when this
   * attempt ends (never rejecting: a failure is recorded and retried with backoff like any
   * other). Call it outside any transaction. If the process dies meanwhile, the lease expires
   * and another process runs the job.
   */
  perform(kind: string, payload: unknown, opts?: EnqueueOptions): Promise<JobOutcome>;
}

const kindQueues = new Map<string, QueueName>();

/** Called by the registry (src/jobs/registry.ts) so that enqueueJob knows a kind's queue. */
export function declareJobQueue(kind: string, queue: QueueName): void {
  kindQueues.set(kind, queue);
}

function queueOf(kind: string, opts: EnqueueOptions = {}): QueueName {
  return opts.queue ?? kindQueues.get(kind) ?? 'default';
}

const enqueued = new EventEmitter();
enqueued.setMaxListeners(0);

/** Calls `listener` after a job queued by this process is committed (runners wake up at once). */
export function onJobsEnqueued(listener: () => void): () => void {
  enqueued.on('enqueued', listener);
  return () => enqueued.off('enqueued', listener);
}

function announce(db: Conn): void {
  afterCommit(db, () => enqueued.emit('enqueued'));
}

/** The row of a new job (also used by the runner for a job it performs at once). */
export function newJobRow(kind: string, payload: unknown, opts: EnqueueOptions, at: Date): Omit<JobRow, 'id'> {
  const stamp = at.toISOString();
  return {
    queue: queueOf(kind, opts),
    kind,
    payload: JSON.stringify(payload ?? null),
    state: 'queued',
    attempts: 0,
    max_attempts: opts.maxAttempts ?? null,
    run_at: (opts.runAt ?? at).toISOString(),
    created_at: stamp,
    started_at: null,
    finished_at: null,
    locked_by: null,
    locked_until: null,
    unique_key: opts.uniqueKey ?? null,
    unique_until: opts.uniqueKey ? (opts.uniqueUntil ?? 'finished') : null,
    group_key: opts.groupKey ?? null,
    progress: null,
    result: null,
    last_error: null,
  };
}

/**
 * Queues a job; call it inside the transaction of the change it follows. Answers the job's
 * id, or null when `uniqueKey` is already held by another job.
 */
export async function enqueueJob(db: Conn, kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<number | null> {
  const row = newJobRow(kind, payload, opts, new Date());
  const insert = db('jobs').insert(row).returning('id');
  const ids: ({ id: number } | number)[] = opts.uniqueKey ? await insert.onConflict('unique_key').ignore() : await insert;
  if (!ids.length) return null;
  announce(db);
  return returnedId(ids[0]);
}

/** A job by id (status endpoints, tests). */
export async function findJob(db: Conn, id: number): Promise<JobRow | undefined> {
  return db('jobs').where({ id }).first();
}
