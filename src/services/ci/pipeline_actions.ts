// GitLab 10.8's pipeline and job actions: cancel (every created/pending/running job of the
// pipeline → canceled, Ci::Pipeline#cancel_running), retry (Ci::RetryPipelineService: the
// latest failed/canceled jobs are cloned as new `created` jobs, the old ones marked retried,
// skipped ones go back to `created`; then the pipeline is processed again), and cancel of one job.
import type { Deps } from '../../deps.js';
import type { BuildRow } from '../../store/ci_rows.js';
import { CANCELABLE } from '../../store/ci_statuses.js';
import { now } from '../../store/time.js';
import { processPipeline, updatePipelineStatus } from './process_pipeline.js';

export async function cancelPipeline(deps: Deps, pipelineId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const stamp = now();
    await tx('ci_builds')
      .where({ pipeline_id: pipelineId })
      .whereIn('status', CANCELABLE)
      .update({ status: 'canceled', finished_at: stamp, updated_at: stamp });
    await updatePipelineStatus(tx, pipelineId);
  });
  // (the runner kills a running job's process group when it sees `canceled`: step 3)
}

export async function retryPipeline(deps: Deps, pipelineId: number, userId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const latest: BuildRow[] = await tx('ci_builds').where({ pipeline_id: pipelineId, retried: false });
    const stamp = now();
    for (const b of latest.filter((x) => x.status === 'failed' || x.status === 'canceled')) {
      await tx('ci_builds').where({ id: b.id }).update({ retried: true, updated_at: stamp });
      const { id: _id, ...rest } = b;
      await tx('ci_builds').insert({
        ...rest, status: 'created', retried: false, user_id: userId, created_at: stamp, updated_at: stamp,
        queued_at: null, started_at: null, finished_at: null, coverage: null, token_digest: null,
        artifacts_file: null, artifacts_size: null, artifacts_expire_at: null,
      });
    }
    // skipped jobs are decided again, in place
    await tx('ci_builds').where({ pipeline_id: pipelineId, retried: false, status: 'skipped' }).update({ status: 'created', finished_at: null, updated_at: stamp });
    await tx('ci_pipelines').where({ id: pipelineId }).update({ finished_at: null });
    await processPipeline(tx, pipelineId);
  });
}
