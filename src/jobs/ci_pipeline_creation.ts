// The pipelines of a push (GitLab's CreatePipelineWorker, queue pipeline_creation): see
// services/ci/push_pipelines.ts.
import { CREATE_PUSH_PIPELINES_JOB, createPushPipelines, type PushPipelinesPayload } from '../services/ci/push_pipelines.js';
import { registerJob } from './registry.js';

registerJob<PushPipelinesPayload>(CREATE_PUSH_PIPELINES_JOB, {
  queue: 'pipeline_creation',
  maxAttempts: 5,
  handler: (deps, payload) => createPushPipelines(deps, payload),
});
