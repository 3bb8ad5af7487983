// GET /sidekiq/queue_metrics, /sidekiq/process_metrics, /sidekiq/job_stats and
// /sidekiq/compound_metrics (GitLab 10.8 lib/api/sidekiq_metrics.rb, admins only): the
// background-job metrics, in Sidekiq's shapes, from Wharf's durable job queue
// (finders/job_metrics.ts). `<jobs>` in the spec is `sidekiq`, the path clients call.
import { jobStats, processMetrics, queueMetrics } from '../finders/job_metrics.js';
import { route, type Route } from './core/route.js';

export const sidekiqMetricsRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/sidekiq/queue_metrics',
    auth: 'admin',
    summary: 'Get the Sidekiq queue metrics',
    handler: async ({ deps }) => ({ queues: await queueMetrics(deps.db) }),
  }),
  route({
    method: 'GET',
    path: '/sidekiq/process_metrics',
    auth: 'admin',
    summary: 'Get the Sidekiq process metrics',
    handler: async ({ deps }) => ({ processes: await processMetrics(deps.db) }),
  }),
  route({
    method: 'GET',
    path: '/sidekiq/job_stats',
    auth: 'admin',
    summary: 'Get the Sidekiq job statistics',
    handler: async ({ deps }) => ({ jobs: await jobStats(deps.db) }),
  }),
  route({
    method: 'GET',
    path: '/sidekiq/compound_metrics',
    auth: 'admin',
    summary: 'Get the Sidekiq Compound metrics. Includes queue, process, and job statistics',
    handler: async ({ deps }) => {
      const at = new Date();
      const [queues, processes, jobs] = await Promise.all([queueMetrics(deps.db, at), processMetrics(deps.db, at), jobStats(deps.db, at)]);
      return { queues, processes, jobs };
    },
  }),
];
