// The refresh of a project's statistics after a git push (GitLab's ProjectCacheWorker, queue
// project_cache); queued by services/push/refs_moved.ts after a git push, one waiting per project at a time.
import { PROJECT_CACHE_JOB, refreshStatisticsOf } from '../services/repository/statistics.js';
import { registerJob } from './registry.js';

registerJob<{ projectId: number }>(PROJECT_CACHE_JOB, {
  queue: 'project_cache',
  maxAttempts: 5,
  handler: (deps, payload) => refreshStatisticsOf(deps, payload.projectId),
});
