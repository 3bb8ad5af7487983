// GitLab 10.8's PipelineSuccessWorker (queue pipeline_processing): merging the merge requests
// that wait for a pipeline that succeeded (services/merge_requests/pipeline_success_merges.ts), queued in the
// transaction that made it succeed (services/merge_requests/merge_on_success.ts).
import { PIPELINE_SUCCESS_JOB, type PipelineSuccessPayload } from '../services/merge_requests/merge_on_success.js';
import { mergeOnPipelineSuccess } from '../services/merge_requests/pipeline_success_merges.js';
import { registerJob } from './registry.js';

registerJob<PipelineSuccessPayload>(PIPELINE_SUCCESS_JOB, {
  queue: 'pipeline_processing',
  maxAttempts: 5,
  handler: async (deps, payload) => ({ merged: await mergeOnPipelineSuccess(deps, payload) }),
});
