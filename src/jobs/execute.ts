// One run of one claimed job: its handler, then its end recorded — success, or a failed
// attempt queued again after Sidekiq's backoff, or a failure for good when no attempt is left.
// Never throws: whatever happens is recorded on the job row and in the log.
import type { Deps } from '../deps.js';
import type { JobOutcome, JobRow } from '../store/job_queue.js';
import { completeJob, failJob, recordProgress } from '../store/job_leases.js';
import { jobDefinition, maxAttemptsOf } from './registry.js';
import { recordJobRun } from '../services/metrics/metrics.js';

/**
 * Sidekiq's retry delay after the `attempt`-th failed run: attempt⁴ + 15 s + a random share
 * of 30 s × attempt (so that jobs failing together do not retry together): 15–44 s after the
 * first failure, about 1.5 days after the 20th.
 */
export function backoffMs(attempt: number, random = Math.random): number {
  const count = attempt - 1;
  return (count ** 4 + 15 + Math.floor(random() * 30) * (count + 1)) * 1000;
}

/** The delay after the `attempt`-th failed run: the kind's own schedule, else Sidekiq's backoff. */
function retryDelayMs(schedule: readonly number[] | undefined, attempt: number): number {
  if (!schedule?.length) return backoffMs(attempt);
  return schedule[Math.min(attempt, schedule.length) - 1];
}

/** The error as stored on the row: its message, then its stack, bounded. */
function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}${err.stack ? `\n${err.stack.split('\n').slice(1, 12).join('\n')}` : ''}`.slice(0, 4000);
  return String(err).slice(0, 4000);
}

export async function executeJob(deps: Deps, owner: string, row: JobRow, signal: AbortSignal, at?: Date): Promise<JobOutcome> {
  const log = deps.log.child({ job: row.id, kind: row.kind, queue: row.queue, attempt: row.attempts });
  const startedMs = Date.now();
  const def = jobDefinition(row.kind);
  let result: unknown;
  let failure: unknown = null;
  try {
    if (!def) throw new Error(`no handler for job kind "${row.kind}"`);
    const payload = JSON.parse(row.payload);
    result = await def.handler(deps, payload, {
      jobId: row.id,
      attempt: row.attempts,
      signal,
      async progress(message: string) {
        log.info({ progress: message }, `${row.kind}: ${message}`);
        await recordProgress(deps.db, row.id, owner, message).catch((err) => log.warn({ err }, 'job progress not stored'));
      },
    });
  } catch (err) {
    failure = err ?? new Error('the job failed');
  }
  const ms = Date.now() - startedMs;
  recordJobRun(row.queue, ms / 1000, failure === null);
  try {
    if (failure === null) {
      if (!(await completeJob(deps.db, row, owner, result))) {
        log.warn({ ms }, 'job finished after its lease was lost: another process runs it, this run is not recorded');
      } else {
        log.info({ ms }, 'job succeeded');
      }
      return { id: row.id, state: 'succeeded', result };
    }
    const error = errorText(failure);
    const max = row.max_attempts ?? maxAttemptsOf(row.kind);
    const retryAt = row.attempts < max ? new Date((at ?? new Date()).getTime() + retryDelayMs(def?.retryDelaysMs, row.attempts)) : null;
    await failJob(deps.db, row, owner, error, retryAt, at);
    if (retryAt) log.warn({ ms, err: failure, retryAt: retryAt.toISOString() }, 'job failed, retrying later');
    else log.error({ ms, err: failure }, `job failed after ${row.attempts} attempts`);
    return { id: row.id, state: retryAt ? 'queued' : 'failed', error };
  } catch (err) {
    // The store is unreachable (or closed): the lease expires and the job runs again.
    log.error({ err }, 'the end of a job could not be recorded; it will run again');
    return { id: row.id, state: 'queued', error: errorText(err) };
  }
}
