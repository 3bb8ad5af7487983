// GitLab 10.8's Ci::Pipeline transition hook `[:created, :pending, :running] => :success`, which
// queues PipelineSuccessWorker: in the transaction that made the pipeline succeed, a durable job
// is queued that merges the merge requests waiting for it (services/merge_requests/pipeline_success_merges.ts),
// so the merge happens only if the status change commits, and happens even if this process dies.
import type { Conn } from '../../store/db.js';
import type { PipelineRow } from '../../store/ci_rows.js';
import type { CiStatus } from '../../store/ci_statuses.js';
import { enqueueJob } from '../../store/job_queue.js';
import type { DomainEvent } from '../domain_events.js';

export const PIPELINE_SUCCESS_JOB = 'pipeline_success';

export interface PipelineSuccessPayload {
  pipelineId: number;
}

const BEFORE_SUCCESS: readonly CiStatus[] = ['created', 'pending', 'running'];

/** The notifier's subscriber: a pipeline that has just succeeded queues the merges waiting for it. */
export async function pipelineMerges(db: Conn, e: DomainEvent): Promise<void> {
  if (e.name === 'pipelineStatusChanged') await enqueueMergeOnPipelineSuccess(db, e.pipeline, e.from);
}

async function enqueueMergeOnPipelineSuccess(db: Conn, pipeline: PipelineRow, from: CiStatus): Promise<void> {
  if (pipeline.status !== 'success' || !BEFORE_SUCCESS.includes(from)) return;
  const payload: PipelineSuccessPayload = { pipelineId: pipeline.id };
  await enqueueJob(db, PIPELINE_SUCCESS_JOB, payload, { queue: 'pipeline_processing' });
}
