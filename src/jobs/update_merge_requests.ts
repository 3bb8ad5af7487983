// The refresh of the merge requests around moved branches (GitLab's UpdateMergeRequestsWorker,
// queue update_merge_requests): performed at once by services/push/ref_updates.ts, and run again by
// any process if the one performing it died.
import { refreshMergeRequestsOf, UPDATE_MERGE_REQUESTS_JOB, type UpdateMergeRequestsPayload } from '../services/merge_requests/refresh.js';
import { registerJob } from './registry.js';

registerJob<UpdateMergeRequestsPayload>(UPDATE_MERGE_REQUESTS_JOB, {
  queue: 'update_merge_requests',
  maxAttempts: 5,
  handler: (deps, payload) => refreshMergeRequestsOf(deps, payload),
});
