// What follows a CI status change, in the transaction that made it: GitLab 10.8 sends a job
// event to the project's `job_hooks` when a job's status changes, and when a pipeline's
// status changes a pipeline event to its `pipeline_hooks`, a `build_failed` to-do on a
// failure, and the merge of the merge requests waiting for it (merge_when_pipeline_succeeds).
// Every place that changes a job's status calls onBuildStatusChange; updatePipelineStatus
// calls onPipelineStatusChange.
import type { Conn } from '../../store/db.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import type { CiStatus } from '../../store/ci_statuses.js';
import { enqueueMergeOnPipelineSuccess } from './merge_on_success.js';

/** After a job's status changed from `from` to `build.status`. */
export async function onBuildStatusChange(_db: Conn, _build: BuildRow, _from: CiStatus): Promise<void> {
  // The contract of issue #13's CI wiring step, which gives this its body (job hooks).
}

/** After a pipeline's status changed from `from` to `pipeline.status`. */
export async function onPipelineStatusChange(db: Conn, pipeline: PipelineRow, from: CiStatus): Promise<void> {
  // The contract of issue #13's CI wiring step, which gives this its body (pipeline hooks,
  // build_failed to-dos, merge when pipeline succeeds).
  await enqueueMergeOnPipelineSuccess(db, pipeline, from);
}
