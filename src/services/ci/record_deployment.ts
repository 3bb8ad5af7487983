// GitLab 10.8's CreateDeploymentService and Environment#generate_slug: when a job with an
// `environment` succeeds, its environment (created on first use, `external_url` from the
// job's `environment.url`) gets a deployment with the next per-project iid, the job's ref,
// tag, sha and user, and the job as its deployable. A stopped environment gets none.
import { randomBytes } from 'node:crypto';
import type { Tx } from '../../store/db.js';
import type { BuildRow, DeploymentRow, EnvironmentRow } from '../../store/ci_rows.js';
import { nextIid } from '../../store/iids.js';
import { now } from '../../store/time.js';
import { insertReturningId } from '../../store/ids.js';

const SLUG_MAX = 24;

/** GitLab's environment slug: lowercase letters, digits and single dashes, at most 24
 * characters, starting with a letter; a name that had to change gets a random suffix. */
export function environmentSlug(name: string): string {
  let slug = [...name.toLowerCase()].map((c) => (/[a-z0-9]/.test(c) ? c : '-')).join('');
  if (!/[a-z]/.test(slug[0] ?? '')) slug = `env-${slug}`;
  slug = slug
    .split('-')
    .filter((part, i, all) => part !== '' || i === 0 || i === all.length - 1)
    .join('-');
  slug = slug.slice(0, SLUG_MAX);
  if (slug.endsWith('-')) slug = slug.slice(0, -1);
  if (slug !== name) {
    slug = slug.slice(0, 17);
    if (!slug.endsWith('-')) slug += '-';
    slug += randomBytes(3).toString('hex');
  }
  return slug;
}

/** The project's environment of that name, created (with its URL) on first use. */
async function ensureEnvironment(tx: Tx, projectId: number, name: string, url: string | null): Promise<EnvironmentRow> {
  const found: EnvironmentRow | undefined = await tx('environments').where({ project_id: projectId, name }).first();
  const stamp = now();
  if (found) {
    if (url && url !== found.external_url) {
      await tx('environments').where({ id: found.id }).update({ external_url: url, updated_at: stamp });
      return { ...found, external_url: url, updated_at: stamp };
    }
    return found;
  }
  const row = { project_id: projectId, name, slug: environmentSlug(name), external_url: url, state: 'available', created_at: stamp, updated_at: stamp };
  return { id: await insertReturningId(tx, 'environments', row), ...row };
}

/** Records the deployment of a job that just succeeded; none for a job without environment. */
export async function recordDeployment(tx: Tx, build: BuildRow, sha: string): Promise<DeploymentRow | null> {
  if (!build.environment) return null;
  const options = JSON.parse(build.options) as { environment?: { url?: string } };
  const environment = await ensureEnvironment(tx, build.project_id, build.environment, options.environment?.url ?? null);
  if (environment.state === 'stopped') return null;
  const stamp = now();
  const row = {
    iid: await nextIid(tx, build.project_id, 'deployments'),
    project_id: build.project_id,
    environment_id: environment.id,
    ref: build.ref,
    tag: !!build.tag,
    sha,
    user_id: build.user_id,
    deployable_id: build.id,
    created_at: stamp,
    updated_at: stamp,
  };
  return { id: await insertReturningId(tx, 'deployments', row), ...row };
}
