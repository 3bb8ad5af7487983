// A project's deployments and environments as GitLab 10.8's API lists them:
// `project.deployments.order(order_by => sort)` (id, iid, created_at or ref; ascending by
// default; ties broken by id so pages are stable) and `project.environments` in the order
// they were created. One deployment is found by its id (not its iid) within the project.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { BuildRow, DeploymentRow, EnvironmentRow } from '../store/ci_rows.js';

export const DEPLOYMENT_ORDERS = ['id', 'iid', 'created_at', 'ref'] as const;
export type DeploymentOrder = (typeof DEPLOYMENT_ORDERS)[number];

export function deploymentsQuery(db: Conn, projectId: number, orderBy: DeploymentOrder, sort: 'asc' | 'desc'): Knex.QueryBuilder {
  const q = db('deployments').where({ project_id: projectId }).orderBy(orderBy, sort);
  if (orderBy !== 'id') q.orderBy('id', sort);
  return q;
}

export async function findDeployment(db: Conn, projectId: number, id: number): Promise<DeploymentRow | undefined> {
  return db('deployments').where({ project_id: projectId, id }).first();
}

export function environmentsQuery(db: Conn, projectId: number): Knex.QueryBuilder {
  return db('environments').where({ project_id: projectId }).orderBy('id', 'asc');
}

/** The environments and jobs that a page of deployments embeds, one query each. */
export async function deploymentEmbeds(db: Conn, deployments: DeploymentRow[]): Promise<{ environments: Map<number, EnvironmentRow>; builds: Map<number, BuildRow> }> {
  const envIds = [...new Set(deployments.map((d) => d.environment_id))];
  const buildIds = [...new Set(deployments.map((d) => d.deployable_id).filter((id): id is number => id !== null))];
  const environments: EnvironmentRow[] = envIds.length ? await db('environments').whereIn('id', envIds) : [];
  const builds: BuildRow[] = buildIds.length ? await db('ci_builds').whereIn('id', buildIds) : [];
  return { environments: new Map(environments.map((e) => [e.id, e])), builds: new Map(builds.map((b) => [b.id, b])) };
}
