// Several Wharf processes on one database each run the daily jobs' timers; the pass itself
// must happen once. A process claims a pass by moving the job's `started_at` forward in a
// write transaction (writers take turns: BEGIN IMMEDIATE on SQLite, the writer lock on
// PostgreSQL): the first claim of an interval wins, the others see a recent start and skip.
// A process that dies leaves its claim to expire, and another takes the next pass.
import type { Conn } from '../store/db.js';

/** Timers of processes started moments apart still belong to the same interval. */
const SLACK_MS = 60_000;

export async function claimRun(db: Conn, name: string, intervalMs: number, at = new Date()): Promise<boolean> {
  const startedAt = at.toISOString();
  const staleBefore = new Date(at.getTime() - intervalMs + SLACK_MS).toISOString();
  return db.transaction(async (tx) => {
    const row: { started_at: string } | undefined = await tx('job_runs').where({ name }).first('started_at');
    if (row && row.started_at > staleBefore) return false;
    if (row) await tx('job_runs').where({ name }).update({ started_at: startedAt });
    else await tx('job_runs').insert({ name, started_at: startedAt });
    return true;
  });
}
