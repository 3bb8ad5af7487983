// GitLab 10.8's pipeline and job actions: cancel (every created/pending/running job of the
// pipeline → canceled, Ci::Pipeline#cancel_running), retry (Ci::RetryPipelineService: the
// latest failed/canceled jobs are cloned as new `created` jobs, the old ones marked retried,
// skipped ones go back to `created`; then the pipeline is processed again), and one job's
// cancel, retry (Ci::RetryBuildService: a clone, enqueued, later skipped stages processable
// again) and play (Ci::PlayBuildService: a manual job enqueued, a finished one retried). Every
// status change goes through transitionBuild; a running job's process group is killed by the
// runner that holds it as soon as it sees the job `canceled`.
import type { Deps } from '../../deps.js';
import type { BuildRow } from '../../store/ci_rows.js';
import { CANCELABLE } from '../../store/ci_statuses.js';
import { now } from '../../store/time.js';
import { cloneOf, insertBuild } from './job_clones.js';
import { processPipeline } from './process_pipeline.js';
import { transitionBuild } from './build_transitions.js';
import { announce } from '../notify.js';

export async function cancelPipeline(deps: Deps, pipelineId: number): Promise<void> {
  // Later stages first: processing after each cancel then never decides a waiting job of a
  // later stage (to `skipped`) before its own cancel, as GitLab's cancel of them all at once.
  const builds: { id: number }[] = await deps
    .db('ci_builds')
    .where({ pipeline_id: pipelineId })
    .whereIn('status', CANCELABLE)
    .orderBy([
      { column: 'stage_idx', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('id');
  for (const b of builds) await transitionBuild(deps.db, b.id, 'canceled');
}

export async function retryPipeline(deps: Deps, pipelineId: number, userId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // Ci::RetryPipelineService works on `pipeline.builds`: external statuses stay as they are.
    const latest: BuildRow[] = await tx('ci_builds').where({ pipeline_id: pipelineId, retried: false, type: 'Ci::Build' });
    const stamp = now();
    const clones: BuildRow[] = [];
    for (const b of latest.filter((x) => x.status === 'failed' || x.status === 'canceled')) {
      await tx('ci_builds').where({ id: b.id }).update({ retried: true, updated_at: stamp });
      const clone = cloneOf(b, userId, stamp);
      clones.push({ ...clone, id: await insertBuild(tx, clone) });
    }
    await announce(tx, { name: 'jobsCreated', builds: clones });
    // skipped jobs are decided again, in place
    await tx('ci_builds')
      .where({ pipeline_id: pipelineId, retried: false, status: 'skipped', type: 'Ci::Build' })
      .update({ status: 'created', finished_at: null, updated_at: stamp });
    await tx('ci_pipelines').where({ id: pipelineId }).update({ finished_at: null });
    await announce(tx, { name: 'pipelineRetried', pipeline: await tx('ci_pipelines').where({ id: pipelineId }).first() });
    await processPipeline(tx, pipelineId);
  });
}

/** GitLab's Ci::Build#cancelable?: pending or running (and created, which cancel_running takes too). */
export async function cancelJob(deps: Deps, build: BuildRow): Promise<BuildRow> {
  if (CANCELABLE.includes(build.status)) await transitionBuild(deps.db, build.id, 'canceled');
  return deps.db('ci_builds').where({ id: build.id }).first();
}

export function retryable(build: BuildRow): boolean {
  return build.status === 'success' || build.status === 'failed' || build.status === 'canceled';
}

export function playable(build: BuildRow): boolean {
  return build.when === 'manual' && (build.status === 'manual' || ['success', 'failed', 'canceled', 'skipped'].includes(build.status));
}

/** A new job cloned from `build` and enqueued; the old one and its namesakes marked retried. */
export async function retryJob(deps: Deps, build: BuildRow, userId: number): Promise<BuildRow> {
  const id = await deps.db.transaction(async (tx) => {
    const stamp = now();
    await tx('ci_builds').where({ pipeline_id: build.pipeline_id, name: build.name, retried: false }).update({ retried: true, updated_at: stamp });
    const clone = cloneOf(build, userId, stamp);
    const newId = await insertBuild(tx, clone);
    await announce(tx, { name: 'jobRetried', build: { ...clone, id: newId } });
    // Ci::Pipeline#mark_as_processable_after_stage: later skipped jobs are decided again.
    await tx('ci_builds')
      .where({ pipeline_id: build.pipeline_id, retried: false, status: 'skipped' })
      .where('stage_idx', '>', build.stage_idx)
      .update({ status: 'created', finished_at: null, updated_at: stamp });
    await tx('ci_pipelines').where({ id: build.pipeline_id }).update({ finished_at: null });
    return newId;
  });
  await transitionBuild(deps.db, id, 'pending');
  return deps.db('ci_builds').where({ id }).first();
}

/** A manual job is enqueued (its user becomes the player); a finished one is retried. */
export async function playJob(deps: Deps, build: BuildRow, userId: number): Promise<BuildRow> {
  if (build.status === 'manual') {
    const moved = await transitionBuild(deps.db, build.id, 'pending', { user_id: userId });
    if (moved) return moved;
  }
  return retryJob(deps, build, userId);
}
