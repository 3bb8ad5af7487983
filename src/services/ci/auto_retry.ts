// GitLab 10.8's `retry:` keyword (Ci::Build's before_transition to failed): a job that fails
// while its pipeline holds fewer retried jobs of its name than its `retry` count is retried
// at once, by its own user (Ci::Build.retry): the failed job is marked retried (so it gives no
// build_failed to-do and leaves the pipeline's status) and a pending clone takes its place.
// As Ci::RetryBuildService, only while that user may still update_build on the job (a user
// removed from the project meanwhile, or who may no longer update its protected branch, gets
// no more runs: the job just fails).
import type { Conn } from '../../store/db.js';
import type { BuildRow } from '../../store/ci_rows.js';
import { now } from '../../store/time.js';
import { findProjectByIdOrPath } from '../../finders/projects.js';
import { findUserById } from '../../finders/users.js';
import { can } from '../../policy/can.js';
import { ciRefFacts } from '../../policy/ci_refs.js';
import { projectAccess } from '../../policy/projects.js';
import { cloneOf, insertBuild } from './job_clones.js';
import { announce } from '../notify.js';

function retriesMax(build: BuildRow): number {
  try {
    const retry = (JSON.parse(build.options) as { retry?: unknown }).retry;
    return typeof retry === 'number' && Number.isInteger(retry) ? retry : 0;
  } catch {
    return 0;
  }
}

async function userMayRetry(tx: Conn, build: BuildRow): Promise<boolean> {
  const user = build.user_id === null ? undefined : await findUserById(tx, build.user_id);
  const project = await findProjectByIdOrPath(tx, String(build.project_id));
  if (!user || !project) return false;
  return can(user, { kind: 'build', ...(await ciRefFacts(tx, project, await projectAccess(tx, user, project), build)) }, 'update_build');
}

/** Before `build` moves to failed: answers whether a clone was queued in its place. */
export async function retryFailingJob(tx: Conn, build: BuildRow): Promise<boolean> {
  if (build.type !== undefined && build.type !== null && build.type !== 'Ci::Build') return false;
  const max = retriesMax(build);
  if (max <= 0) return false;
  const [{ n }] = await tx('ci_builds').where({ pipeline_id: build.pipeline_id, name: build.name, retried: true }).count({ n: '*' });
  if (Number(n) >= max) return false;
  if (!(await userMayRetry(tx, build))) return false;
  const stamp = now();
  const clone: Omit<BuildRow, 'id'> = { ...cloneOf(build, build.user_id, stamp), status: 'pending', queued_at: stamp };
  await announce(tx, { name: 'jobRetried', build: { ...clone, id: await insertBuild(tx, clone) } });
  return true;
}
