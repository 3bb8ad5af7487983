// The job rows' own retention: a succeeded job is kept a week (status endpoints and the
// periodic jobs' per-period keys read it), a failed one a month (what went wrong stays
// visible); older ones are removed once a day. Running and queued jobs are never touched.
import { pruneFinishedJobs } from '../store/job_leases.js';
import { registerCron, registerJob } from './registry.js';

const DAY_MS = 24 * 3600_000;
const SUCCEEDED_KEPT_MS = 7 * DAY_MS;
const FAILED_KEPT_MS = 30 * DAY_MS;
const PRUNE_FINISHED_JOBS = 'prune_finished_jobs';

registerJob<{ at?: string }>(PRUNE_FINISHED_JOBS, {
  queue: 'cronjob',
  maxAttempts: 3,
  handler: (deps, payload) => {
    const at = payload?.at ? new Date(payload.at) : new Date();
    return pruneFinishedJobs(deps.db, new Date(at.getTime() - SUCCEEDED_KEPT_MS), new Date(at.getTime() - FAILED_KEPT_MS));
  },
});

registerCron(PRUNE_FINISHED_JOBS, { kind: PRUNE_FINISHED_JOBS, everyMs: DAY_MS });
