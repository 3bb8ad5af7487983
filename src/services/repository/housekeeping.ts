// Repository housekeeping as GitLab 10.8 does it (Projects::HousekeepingService and
// GitGarbageCollectWorker): every push, over git or through the API, counts in the project's
// `pushes_since_gc`; when the count reaches a multiple of the incremental repack, full repack
// or gc period, housekeeping is queued (the largest period that divides it picks the task), and
// after a gc is queued the count starts again. `POST /projects/:id/housekeeping` queues it at
// once with the task the count implies (a gc when nothing was pushed since the last one).
//
// One housekeeping per project at a time: the job holds the key `project_housekeeping:<id>`
// (GitLab's exclusive lease of that name) from when it is queued until it ends; another
// request meanwhile is told so (409, GitLab's message), an automatic one is skipped. The job
// runs in the git_garbage_collect queue and reports its state on the job row and in the log.
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import { enqueueJob } from '../../store/job_queue.js';
import { findProjectByIdOrPath, fullPathOf, gitdirOf } from '../../finders/projects.js';
import { countObjects, runHousekeeping, type HousekeepingTask } from '../../git/housekeeping.js';
import { forget } from '../../git/cache.js';
import { housekeepingSettings, type HousekeepingSettings } from './housekeeping_settings.js';

export const GIT_GARBAGE_COLLECT_JOB = 'git_garbage_collect';

/** GitLab's lease of 24 hours, in its words (the lease here ends with the job). */
export const LEASE_TAKEN_MESSAGE = `Somebody already triggered housekeeping for this project in the past ${86400 / 60} minutes`;

export interface HousekeepingPayload {
  projectId: number;
  task: HousekeepingTask;
}

function housekeepingTask(pushes: number, s: HousekeepingSettings): HousekeepingTask {
  if (pushes % s.gcPeriod === 0) return 'gc';
  if (pushes % s.fullRepackPeriod === 0) return 'full_repack';
  return 'incremental_repack';
}

function housekeepingDue(pushes: number, s: HousekeepingSettings): boolean {
  return s.enabled && pushes > 0 && [s.gcPeriod, s.fullRepackPeriod, s.incrementalRepackPeriod].some((p) => p > 0 && pushes % p === 0);
}

/** Queues the task for the count; null when the project's housekeeping lease is taken. */
async function queueHousekeeping(tx: Conn, projectId: number, pushes: number, s: HousekeepingSettings): Promise<number | null> {
  const payload: HousekeepingPayload = { projectId, task: housekeepingTask(pushes, s) };
  const id = await enqueueJob(tx, GIT_GARBAGE_COLLECT_JOB, payload, {
    queue: 'git_garbage_collect',
    uniqueKey: `project_housekeeping:${projectId}`,
    uniqueUntil: 'finished',
  });
  if (id !== null && pushes >= s.gcPeriod) await tx('projects').where({ id: projectId }).update({ pushes_since_gc: 0 });
  return id;
}

/** After every push (GitLab's GitPushService#perform_housekeeping): counts it, queues housekeeping when due. */
export async function countPushForHousekeeping(deps: Deps, projectId: number): Promise<void> {
  const settings = await housekeepingSettings(deps);
  await deps.db.transaction(async (tx) => {
    await tx('projects').where({ id: projectId }).increment('pushes_since_gc', 1);
    const row: { pushes_since_gc: number } | undefined = await tx('projects').where({ id: projectId }).first('pushes_since_gc');
    if (row && housekeepingDue(row.pushes_since_gc, settings)) await queueHousekeeping(tx, projectId, row.pushes_since_gc, settings);
  });
}

/** POST /projects/:id/housekeeping: the queued job's id, or null when the lease is taken. */
export async function startHousekeeping(deps: Deps, projectId: number): Promise<number | null> {
  const settings = await housekeepingSettings(deps);
  return deps.db.transaction(async (tx) => {
    const row: { pushes_since_gc: number } | undefined = await tx('projects').where({ id: projectId }).first('pushes_since_gc');
    return queueHousekeeping(tx, projectId, row?.pushes_since_gc ?? 0, settings);
  });
}

/** The job's work: the task on the project's repository as it is now; progress goes to the row and the log. */
export async function performHousekeeping(
  deps: Deps,
  payload: HousekeepingPayload,
  progress: (message: string) => Promise<void>,
  signal: AbortSignal,
): Promise<{ task: HousekeepingTask; before: Record<string, number>; after: Record<string, number> } | null> {
  const project = await findProjectByIdOrPath(deps.db, String(payload.projectId));
  if (!project || !deps.repos.exists(fullPathOf(project))) {
    await progress('skipped: the project or its repository is gone');
    return null;
  }
  const settings = await housekeepingSettings(deps);
  const gitdir = gitdirOf(deps.repos, project);
  const before = await countObjects(gitdir);
  await progress(`${payload.task} of ${fullPathOf(project)} started (${before.count} loose objects, ${before.packs} packs)`);
  await runHousekeeping(gitdir, payload.task, settings.bitmapsEnabled, signal);
  forget(gitdir); // packs were replaced: drop what was cached of the old ones
  const after = await countObjects(gitdir);
  await progress(`${payload.task} of ${fullPathOf(project)} finished (${after.count} loose objects, ${after.packs} packs)`);
  return { task: payload.task, before, after };
}
