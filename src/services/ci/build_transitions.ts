// GitLab 10.8's CommitStatus state machine, as one step a runner (or an external status, or
// a cancel) takes: the job moves only along an allowed transition and only from the status
// it was read in (a job canceled meanwhile is left canceled), with GitLab's timestamps; then,
// in the same transaction, the status-change hooks run, a succeeded job with an environment
// records its deployment, and the pipeline is processed (the next stage, its own status). A
// failing job with `retry:` left is first replaced by a pending clone (auto_retry.ts).
import type { Db } from '../../store/db.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import { COMPLETED, type CiStatus } from '../../store/ci_statuses.js';
import { now } from '../../store/time.js';
import { processPipeline } from './process_pipeline.js';
import { recordDeployment } from './record_deployment.js';
import { announce } from '../notify.js';
import { retryFailingJob } from './auto_retry.js';

const FROM: Record<CiStatus, readonly CiStatus[]> = {
  created: [],
  pending: ['created', 'skipped', 'manual'],
  running: ['pending'],
  success: ['pending', 'running'],
  failed: ['created', 'pending', 'running'],
  canceled: ['created', 'pending', 'running', 'manual'],
  skipped: ['created'],
  manual: ['created'],
};

function canTransition(from: CiStatus, to: CiStatus): boolean {
  return FROM[to].includes(from);
}

/** Moves a job to `to` (with any other column changes); answers the updated row, or null when
 * the job is gone or its current status does not allow the move. */
export async function transitionBuild(db: Db, buildId: number, to: CiStatus, changes: Partial<BuildRow> = {}): Promise<BuildRow | null> {
  return db.transaction(async (tx) => {
    const build: BuildRow | undefined = await tx('ci_builds').where({ id: buildId }).first();
    if (!build || !canTransition(build.status, to)) return null;
    const stamp = now();
    const update: Partial<BuildRow> = { ...changes, status: to, updated_at: stamp };
    if (to === 'pending') update.queued_at = stamp;
    if (to === 'running') update.started_at = stamp;
    if (COMPLETED.includes(to)) update.finished_at = stamp;
    const moved = await tx('ci_builds').where({ id: buildId, status: build.status }).update(update);
    if (!moved) return null;
    const next: BuildRow = { ...build, ...update };
    if (to === 'failed' && (await retryFailingJob(tx, build))) {
      await tx('ci_builds').where({ id: buildId }).update({ retried: true });
      next.retried = true;
    }
    await announce(tx, { name: 'jobStatusChanged', build: next, from: build.status });
    if (to === 'success' && next.environment) {
      const pipeline: PipelineRow = await tx('ci_pipelines').where({ id: next.pipeline_id }).first();
      await recordDeployment(tx, next, pipeline.sha);
    }
    await processPipeline(tx, next.pipeline_id);
    return next;
  });
}
