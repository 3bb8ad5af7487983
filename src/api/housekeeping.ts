// POST /projects/:id/housekeeping (GitLab 10.8 lib/api/projects.rb): for those who may
// administer the project; queues the repository's housekeeping (services/repository/housekeeping.ts) and
// answers 201 with the job's id as a JSON string (GitLab answered its Sidekiq job id), or 409
// with GitLab's message while a housekeeping of the project is queued or running.
import { conflict } from '../http/errors.js';
import { LEASE_TAKEN_MESSAGE, startHousekeeping } from '../services/repository/housekeeping.js';
import { HANDLED, route, type Route } from './core/route.js';

export const housekeepingRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/projects/:id/housekeeping',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    summary: 'Start the housekeeping task for a project',
    handler: async ({ ctx, deps, project }) => {
      const jobId = await startHousekeeping(deps, project.id);
      if (jobId === null) throw conflict(LEASE_TAKEN_MESSAGE);
      ctx.status = 201;
      ctx.set('Content-Type', 'application/json');
      ctx.body = JSON.stringify(String(jobId));
      return HANDLED;
    },
  }),
];
