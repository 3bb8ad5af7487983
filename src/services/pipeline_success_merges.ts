// GitLab 10.8's PipelineSuccessWorker → MergeWhenPipelineSucceedsService#trigger: when a
// pipeline succeeds, each open merge request of its branch that waits to be merged when the
// pipeline succeeds, and whose head pipeline it is, is merged by the user who set it waiting,
// with the merge params kept then — if it is still mergeable (the full check, pipeline rule
// included); otherwise it is left waiting. Run as a durable job queued by the status change
// (ci/merge_on_success.ts); every fact is read again here, since the job runs later.
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { PipelineRow } from '../store/ci_rows.js';
import { DomainError } from '../store/domain_errors.js';
import { mergeRequestsWaitingFor } from '../finders/merge_request_pipelines.js';
import { fullPathOf } from '../finders/projects.js';
import { readRef } from '../git/refs.js';
import { projectOf } from './merge_status.js';
import { checkMergeable, performMerge } from './merges.js';
import type { PipelineSuccessPayload } from './ci/merge_on_success.js';

/** Merges the merge requests waiting for the pipeline; answers the ids of those merged. */
export async function mergeOnPipelineSuccess(deps: Deps, payload: PipelineSuccessPayload): Promise<number[]> {
  const pipeline: PipelineRow | undefined = await deps.db('ci_pipelines').where({ id: payload.pipelineId }).first();
  if (!pipeline || pipeline.status !== 'success') return [];
  const merged: number[] = [];
  for (const mr of await mergeRequestsWaitingFor(deps.db, pipeline)) {
    if (mr.merge_user_id === null) continue;
    const user: UserRow | undefined = await deps.db('users').where({ id: mr.merge_user_id }).first();
    const project = await projectOf(deps, mr.target_project_id);
    const source = mr.source_project_id === null ? null : await projectOf(deps, mr.source_project_id);
    if (!user || !project || !source) continue;
    // The source branch still at the pipeline's commit (a push meanwhile resets the wait).
    if ((await readRef(deps.repos.pathFor(fullPathOf(source)), `refs/heads/${mr.source_branch}`)) !== pipeline.sha) continue;
    try {
      await checkMergeable(deps, project, mr, false);
      await performMerge(deps, project, mr, user, pipeline.sha, {
        commitMessage: mr.merge_commit_message ?? undefined,
        shouldRemoveSourceBranch: mr.should_remove_source_branch === null ? undefined : !!mr.should_remove_source_branch,
      });
      merged.push(mr.id);
    } catch (err) {
      // Not mergeable (a conflict, a failed rule): left waiting, as GitLab leaves it.
      if (!(err instanceof DomainError)) throw err;
    }
  }
  return merged;
}
