// GitLab 10.8's Entities::EnvironmentBasic, Environment and Deployment (lib/api/entities.rb).
// Pure presenters: the user, environment, job and project they embed are rendered by the
// caller (one query per kind for a page).
import type { DeploymentRow, EnvironmentRow } from '../store/ci_rows.js';

function environmentBasic(e: Pick<EnvironmentRow, 'id' | 'name' | 'slug' | 'external_url'>) {
  return { id: e.id, name: e.name, slug: e.slug, external_url: e.external_url };
}

/** Environment: EnvironmentBasic and its project (BasicProjectDetails, rendered by the caller). */
export function environmentEntity(e: EnvironmentRow, project: unknown) {
  return { ...environmentBasic(e), project };
}

export interface DeploymentEmbeds {
  /** UserBasic of who deployed, or null. */
  user: unknown;
  environment: EnvironmentRow | undefined;
  /** The Job entity of the deploying job, or null when it is gone. */
  deployable: unknown;
}

export function deploymentEntity(d: DeploymentRow, e: DeploymentEmbeds) {
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    user: e.user ?? null,
    environment: e.environment ? environmentBasic(e.environment) : null,
    deployable: e.deployable ?? null,
  };
}
