// Repository housekeeping (GitLab's GitGarbageCollectWorker, queue git_garbage_collect):
// queued by services/repository/housekeeping.ts after every period of pushes or on request; git's own
// locks make a rerun after a crash harmless.
import { GIT_GARBAGE_COLLECT_JOB, performHousekeeping, type HousekeepingPayload } from '../services/repository/housekeeping.js';
import { registerJob } from './registry.js';

registerJob<HousekeepingPayload>(GIT_GARBAGE_COLLECT_JOB, {
  queue: 'git_garbage_collect',
  maxAttempts: 3,
  handler: (deps, payload, ctx) => performHousekeeping(deps, payload, ctx.progress, ctx.signal),
});
