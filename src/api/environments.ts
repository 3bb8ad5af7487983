// A project's environments (GitLab 10.8's GET /projects/:id/environments of
// lib/api/environments.rb): for signed-in users with read_environment (reporters; refused
// while jobs are disabled), paginated, oldest first, each as Entities::Environment (id, name,
// slug, external_url and the project as BasicProjectDetails). Environments are created by the
// first successful deployment to them (services/ci/record_deployment.ts); creating, editing,
// stopping and deleting them through the API is not part of Wharf's spec.
import { paginate } from '../http/pagination.js';
import { environmentsQuery } from '../finders/deployments.js';
import { environmentEntity } from '../entities/deployment.js';
import type { EnvironmentRow } from '../store/ci_rows.js';
import { presentProject } from './present_projects.js';
import { route, type Route } from './core/route.js';

export const environmentRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/environments',
    auth: 'user',
    load: 'project',
    ability: 'read_environment',
    summary: 'Get all environments of the project',
    response: { schema: 'Environment', list: true },
    handler: async ({ ctx, deps, user, project, loaded }) => {
      const rows = await paginate<EnvironmentRow>(ctx, deps.db, environmentsQuery(deps.db, project.id));
      const basic = rows.length ? await presentProject(deps, user, project, { view: 'basic' }, loaded.extras) : null;
      return rows.map((e) => environmentEntity(e, basic));
    },
  }),
];
