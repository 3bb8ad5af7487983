// GitLab 10.8's Ci::ProcessPipelineService and pipeline status update: walk the stages in
// order; a stage's `created` jobs are decided once every earlier stage is complete, from the
// composite status of those stages: on_success runs after success/skipped, on_failure after
// failed, always after success/failed/skipped, manual waits as `manual` after success; otherwise the
// job is skipped. A `manual` earlier stage blocks the later ones. Then the pipeline's status,
// timestamps and duration follow its latest jobs; each status change is announced (notify.ts).
import type { Conn } from '../../store/db.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import { COMPLETED, compositeStatus, type CiStatus } from '../../store/ci_statuses.js';
import { now } from '../../store/time.js';
import { announce } from '../notify.js';

/** Decides waiting jobs and refreshes the pipeline's status; answers the new status. */
export async function processPipeline(db: Conn, pipelineId: number): Promise<CiStatus | null> {
  const builds: BuildRow[] = await db('ci_builds').where({ pipeline_id: pipelineId, retried: false }).orderBy('id');
  const stamp = now();
  const indexes = [...new Set(builds.map((b) => b.stage_idx))].sort((a, b) => a - b);
  for (const idx of indexes) {
    const prior = compositeStatus(builds.filter((b) => b.stage_idx < idx));
    const priorStatus = builds.some((b) => b.stage_idx < idx) ? prior : 'success';
    if (priorStatus === 'manual') break;
    if (!COMPLETED.includes(priorStatus)) break;
    for (const build of builds.filter((b) => b.stage_idx === idx && b.status === 'created')) {
      const next = decide(build.when, priorStatus);
      const changes: Partial<BuildRow> = { status: next, updated_at: stamp };
      if (next === 'pending') changes.queued_at = stamp;
      if (next === 'skipped') changes.finished_at = stamp;
      const moved = await db('ci_builds').where({ id: build.id, status: 'created' }).update(changes);
      Object.assign(build, changes);
      if (moved) await announce(db, { name: 'jobStatusChanged', build, from: 'created' });
    }
  }
  return updatePipelineStatus(db, pipelineId, builds);
}

function decide(when: string, prior: CiStatus): CiStatus {
  const succeeded = prior === 'success' || prior === 'skipped';
  if (when === 'on_success') return succeeded ? 'pending' : 'skipped';
  if (when === 'on_failure') return prior === 'failed' ? 'pending' : 'skipped';
  if (when === 'always') return prior === 'canceled' ? 'skipped' : 'pending';
  if (when === 'manual') return succeeded ? 'manual' : 'skipped';
  return 'skipped';
}

/** The pipeline's status from its latest jobs, with GitLab's started/finished/duration. */
export async function updatePipelineStatus(db: Conn, pipelineId: number, latest?: BuildRow[]): Promise<CiStatus | null> {
  const pipeline: PipelineRow | undefined = await db('ci_pipelines').where({ id: pipelineId }).first();
  if (!pipeline) return null;
  if (pipeline.yaml_errors) return pipeline.status;
  const builds: BuildRow[] = latest ?? (await db('ci_builds').where({ pipeline_id: pipelineId, retried: false }));
  const status = compositeStatus(builds);
  const stamp = now();
  const changes: Partial<PipelineRow> = { status };
  if (status !== pipeline.status) changes.updated_at = stamp;
  if (status === 'running' && !pipeline.started_at) changes.started_at = stamp;
  if (COMPLETED.includes(status)) {
    if (!pipeline.finished_at || status !== pipeline.status) changes.finished_at = stamp;
    changes.duration = runningSeconds(builds);
  } else {
    changes.finished_at = null;
  }
  await db('ci_pipelines').where({ id: pipelineId }).update(changes);
  if (status !== pipeline.status) await announce(db, { name: 'pipelineStatusChanged', pipeline: { ...pipeline, ...changes }, from: pipeline.status });
  return status;
}

/** Seconds any job was running, overlaps counted once (GitLab's Ci::Pipeline#update_duration). */
function runningSeconds(builds: BuildRow[]): number | null {
  const spans = builds
    .filter((b) => b.started_at && b.finished_at)
    .map((b) => [Date.parse(b.started_at!), Date.parse(b.finished_at!)] as const)
    .sort((a, b) => a[0] - b[0]);
  if (spans.length === 0) return null;
  let total = 0;
  let [start, end] = spans[0];
  for (const [s, e] of spans.slice(1)) {
    if (s > end) {
      total += end - start;
      [start, end] = [s, e];
    } else if (e > end) end = e;
  }
  total += end - start;
  return Math.round(total / 1000);
}
