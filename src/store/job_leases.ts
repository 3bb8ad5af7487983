// The runner's side of the job queue (src/jobs/runner.ts): claiming due jobs under a lease,
// renewing leases while their process lives, and ending a run. Every step that changes a job
// is one short write transaction; a run's own work happens between them, outside any.
//
// Exactly one process holds a job: a claim selects due rows and marks them running with the
// claimer's id and a lease expiry in one write transaction — BEGIN IMMEDIATE on SQLite (one
// writer at a time, in every process on the file), SELECT ... FOR UPDATE SKIP LOCKED on
// PostgreSQL (a row another claimer is taking is skipped, not waited for). A job whose
// process died keeps its `running` state until its lease expires; then the next claim takes
// it again (its attempt counts). Ending a run checks the lease is still this process's, so a
// process that stalled past its lease and lost the job records nothing.
import type { Knex } from 'knex';
import type { Conn, Db } from './db.js';
import { isSqlite } from './db.js';
import { returnedId } from './ids.js';
import type { JobRow } from './job_queue.js';

export interface ClaimOptions {
  /** The claiming process's id (job_processes.id). */
  owner: string;
  /** Most jobs to claim. */
  limit: number;
  /** Only these kinds (the ones this process can run). */
  kinds: string[];
  leaseMs: number;
  at?: Date;
  /** The attempts a job of `kind` may make when it sets none itself. */
  maxAttemptsOf(kind: string): number;
}

/** A row is due: queued and its time has come, or running under a lease that has expired. */
function due(stamp: string) {
  return (q: Knex.QueryBuilder) =>
    q.where((b) => b.where('jobs.state', 'queued').andWhere('jobs.run_at', '<=', stamp)).orWhere((b) => b.where('jobs.state', 'running').andWhere('jobs.locked_until', '<', stamp));
}

/** Whether any job of these kinds is due (a read: an idle poll takes no write lock). */
export async function anyDue(db: Conn, kinds: string[], at = new Date()): Promise<boolean> {
  if (!kinds.length) return false;
  const row = await db('jobs').where(due(at.toISOString())).whereIn('kind', kinds).first('id');
  return !!row;
}

/** Rows read per job claimed, so that a group's later jobs do not crowd out other jobs. */
const GROUP_OVERSCAN = 4;

/**
 * Marks up to `limit` due jobs running under this owner's lease; answers them. Of a group
 * (`group_key`), one job at a time: none while one of its jobs runs under a live lease, and
 * the first due one otherwise.
 */
export async function claimJobs(db: Db, o: ClaimOptions): Promise<JobRow[]> {
  if (!o.kinds.length || o.limit <= 0) return [];
  const at = o.at ?? new Date();
  const stamp = at.toISOString();
  const until = new Date(at.getTime() + o.leaseMs).toISOString();
  return db.transaction(async (tx) => {
    // A group's job waits while another of its group runs under a live lease (one at a time).
    const busyGroups = tx('jobs').where('state', 'running').whereNotNull('group_key').andWhere('locked_until', '>=', stamp).select('group_key');
    let select = tx('jobs')
      .where(due(stamp))
      .whereIn('kind', o.kinds)
      .where((q) => q.whereNull('group_key').orWhereNotIn('group_key', busyGroups))
      .orderBy('run_at')
      .orderBy('id')
      .limit(o.limit * GROUP_OVERSCAN)
      .select('*');
    // PostgreSQL: lock the chosen rows, skipping those another claimer has locked. SQLite has
    // no row locks and needs none: BEGIN IMMEDIATE already made this transaction the only writer.
    if (!isSqlite(tx)) select = select.forUpdate().skipLocked();
    const rows: JobRow[] = await select;
    const claimed: JobRow[] = [];
    const groups = new Set<string>();
    for (const row of rows) {
      if (claimed.length >= o.limit) break;
      if (row.group_key !== null) {
        if (groups.has(row.group_key)) continue; // its group's first job is taken in this claim
        groups.add(row.group_key);
      }
      // A job whose lease expired with no attempt left (it killed its process each time) fails.
      if (row.state === 'running' && row.attempts >= (row.max_attempts ?? o.maxAttemptsOf(row.kind))) {
        await finishFailed(tx, row, `the job's process stopped while running it (attempt ${row.attempts}), and no attempt is left`, at);
        continue;
      }
      claimed.push(row);
    }
    if (!claimed.length) return [];
    await tx('jobs')
      .whereIn(
        'id',
        claimed.map((r) => r.id),
      )
      .update({
        state: 'running',
        locked_by: o.owner,
        locked_until: until,
        started_at: stamp,
        attempts: tx.raw('attempts + 1'),
        unique_key: tx.raw("CASE WHEN unique_until = 'started' THEN NULL ELSE unique_key END"),
      });
    return claimed.map((r) => ({
      ...r,
      state: 'running' as const,
      locked_by: o.owner,
      locked_until: until,
      started_at: stamp,
      attempts: r.attempts + 1,
      unique_key: r.unique_until === 'started' ? null : r.unique_key,
    }));
  });
}

/** Inserts a job already running under this owner's lease (JobPerformer.perform). */
export async function insertClaimedJob(db: Db, row: Omit<JobRow, 'id'>, owner: string, leaseMs: number, at = new Date()): Promise<JobRow | null> {
  const stamp = at.toISOString();
  const claimed = {
    ...row,
    state: 'running' as const,
    attempts: 1,
    locked_by: owner,
    locked_until: new Date(at.getTime() + leaseMs).toISOString(),
    started_at: stamp,
    unique_key: row.unique_until === 'started' ? null : row.unique_key,
  };
  const insert = db('jobs').insert(claimed).returning('id');
  const ids: ({ id: number } | number)[] = claimed.unique_key ? await insert.onConflict('unique_key').ignore() : await insert;
  if (!ids.length) return null;
  return { ...claimed, id: returnedId(ids[0]) };
}

/** Moves the lease expiry of this owner's running jobs (the heartbeat). */
export async function renewLeases(db: Conn, owner: string, ids: number[], leaseMs: number, at = new Date()): Promise<void> {
  if (!ids.length) return;
  await db('jobs')
    .whereIn('id', ids)
    .where({ locked_by: owner, state: 'running' })
    .update({ locked_until: new Date(at.getTime() + leaseMs).toISOString() });
}

/** Stores a running job's progress line; false when the lease is not this owner's any more. */
export async function recordProgress(db: Conn, id: number, owner: string, message: string): Promise<boolean> {
  return (
    (await db('jobs')
      .where({ id, locked_by: owner, state: 'running' })
      .update({ progress: message.slice(0, 1000) })) > 0
  );
}

const held = (tx: Conn, row: Pick<JobRow, 'id'>, owner: string) => tx('jobs').where({ id: row.id, locked_by: owner, state: 'running' });
const keyAfterFinish = (tx: Conn) => tx.raw("CASE WHEN unique_until = 'pruned' THEN unique_key ELSE NULL END");

async function count(tx: Conn, failed: boolean): Promise<void> {
  await tx('job_stats').where({ name: 'processed' }).increment('value', 1);
  if (failed) await tx('job_stats').where({ name: 'failed' }).increment('value', 1);
}

/** Records a run's success; false when the lease was lost (another process owns the job now). */
export async function completeJob(db: Db, row: JobRow, owner: string, result: unknown, at = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const n = await held(tx, row, owner).update({
      state: 'succeeded',
      finished_at: at.toISOString(),
      locked_until: null,
      result: result === undefined ? null : JSON.stringify(result),
      unique_key: keyAfterFinish(tx),
    });
    if (n) await count(tx, false);
    return n > 0;
  });
}

/**
 * Records a failed attempt: queued again at `retryAt`, or failed for good when none is left
 * (`retryAt` null). False when the lease was lost.
 */
export async function failJob(db: Db, row: JobRow, owner: string, error: string, retryAt: Date | null, at = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    let n: number;
    if (retryAt) {
      n = await held(tx, row, owner).update({ state: 'queued', run_at: retryAt.toISOString(), locked_by: null, locked_until: null, last_error: error });
    } else {
      n = await held(tx, row, owner).update({ state: 'failed', finished_at: at.toISOString(), locked_until: null, last_error: error, unique_key: keyAfterFinish(tx) });
    }
    if (n) await count(tx, true);
    return n > 0;
  });
}

async function finishFailed(tx: Conn, row: JobRow, error: string, at: Date): Promise<void> {
  await tx('jobs')
    .where({ id: row.id, state: 'running' })
    .update({ state: 'failed', finished_at: at.toISOString(), locked_until: null, last_error: error, unique_key: keyAfterFinish(tx) });
  await count(tx, true);
}

/** Hands this owner's unfinished jobs back to the queue at once (a stop that could not wait). */
export async function releaseJobs(db: Conn, owner: string, ids: number[], at = new Date()): Promise<void> {
  if (!ids.length) return;
  await db('jobs')
    .whereIn('id', ids)
    .where({ locked_by: owner, state: 'running' })
    .update({ state: 'queued', run_at: at.toISOString(), locked_by: null, locked_until: null, attempts: db.raw('attempts - 1') });
}

/** Removes finished jobs older than the cut-offs (the job rows' own retention). */
export async function pruneFinishedJobs(db: Conn, succeededBefore: Date, failedBefore: Date): Promise<number> {
  const a = await db('jobs').where('state', 'succeeded').andWhere('finished_at', '<', succeededBefore.toISOString()).delete();
  const b = await db('jobs').where('state', 'failed').andWhere('finished_at', '<', failedBefore.toISOString()).delete();
  return a + b;
}
