// A project's deployments (GitLab 10.8's lib/api/deployments.rb): the list (`order_by` id,
// iid, created_at or ref, default id; `sort` asc by default) and one by its id. Both need a
// signed-in user with read_deployment (reporters; not opened to a public project's
// non-members; refused while jobs are disabled). Entities::Deployment embeds who deployed
// (UserBasic), the environment (EnvironmentBasic) and the job (Entities::Job): one query per
// kind for a whole page. Deployments are recorded by services/ci/record_deployment.ts when a
// job with an `environment` succeeds.
import { recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { Deps } from '../deps.js';
import { DEPLOYMENT_ORDERS, deploymentEmbeds, deploymentsQuery, findDeployment } from '../finders/deployments.js';
import { deploymentEntity } from '../entities/deployment.js';
import { userBasic } from '../entities/user.js';
import type { BuildRow, DeploymentRow } from '../store/ci_rows.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { usersById } from '../finders/users.js';
import { presentJobs } from './pipelines.js';
import { route, type Route } from './core/route.js';

async function presentDeployments(deps: Deps, project: ProjectWithNamespace, rows: DeploymentRow[]) {
  const { environments, builds } = await deploymentEmbeds(deps.db, rows);
  const users = await usersById(
    deps.db,
    rows.map((d) => d.user_id),
  );
  const buildList: BuildRow[] = [...builds.values()];
  const jobs = await presentJobs(deps, project, buildList);
  const jobById = new Map(buildList.map((b, i) => [b.id, jobs[i]]));
  return rows.map((d) => {
    const user = d.user_id === null ? undefined : users.get(d.user_id);
    return deploymentEntity(d, {
      user: user ? userBasic(user, deps.urls) : null,
      environment: environments.get(d.environment_id),
      deployable: d.deployable_id === null ? null : (jobById.get(d.deployable_id) ?? null),
    });
  });
}

export const deploymentRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/deployments',
    auth: 'user',
    load: 'project',
    ability: 'read_deployment',
    params: {
      order_by: p.string().values(DEPLOYMENT_ORDERS).default('id'),
      sort: p
        .string()
        .values(['asc', 'desc'] as const)
        .default('asc'),
    },
    summary: 'Get all deployments of the project',
    response: { schema: 'Deployment', list: true },
    handler: async ({ ctx, deps, project, params }) => {
      const query = deploymentsQuery(deps.db, project.id, params.order_by as (typeof DEPLOYMENT_ORDERS)[number], params.sort as 'asc' | 'desc');
      return presentDeployments(deps, project, await paginate<DeploymentRow>(ctx, deps.db, query));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/deployments/:deployment_id',
    auth: 'user',
    load: 'project',
    ability: 'read_deployment',
    params: { deployment_id: p.integer().required() },
    summary: 'Gets a specific deployment',
    response: { schema: 'Deployment' },
    handler: async ({ deps, project, params }) => {
      const row = await findDeployment(deps.db, project.id, params.deployment_id);
      if (!row) throw recordNotFound();
      return (await presentDeployments(deps, project, [row]))[0];
    },
  }),
];
