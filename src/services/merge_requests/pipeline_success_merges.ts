// GitLab 10.8's PipelineSuccessWorker → MergeWhenPipelineSucceedsService#trigger: when a
// pipeline succeeds, each open merge request of its branch that waits to be merged when the
// pipeline succeeds, and whose head pipeline it is, is merged by the user who set it waiting,
// with the merge params kept then — if it is still mergeable (the full check, pipeline rule
// included); otherwise it is left waiting and its merge user gets an `unmergeable` to-do
// (TodoService#merge_request_became_unmergeable; none when one is already pending on it). Run
// as a durable job queued by the status change (merge_requests/merge_on_success.ts); every fact is read
// again here, since the job runs later.
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../store/rows.js';
import type { PipelineRow } from '../../store/ci_rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { TODO_ACTIONS } from '../../store/todo_actions.js';
import { now } from '../../store/time.js';
import { DomainError } from '../../store/domain_errors.js';
import { mergeRequestsWaitingFor } from '../../finders/merge_request_pipelines.js';
import { gitdirOf } from '../../finders/projects.js';
import { readRef } from '../../git/refs.js';
import { projectOf } from './merge_status.js';
import { checkMergeable, performMerge } from './merges.js';
import type { PipelineSuccessPayload } from './merge_on_success.js';
import { findUserById } from '../../finders/users.js';

/** Merges the merge requests waiting for the pipeline; answers the ids of those merged. */
export async function mergeOnPipelineSuccess(deps: Deps, payload: PipelineSuccessPayload): Promise<number[]> {
  const pipeline: PipelineRow | undefined = await deps.db('ci_pipelines').where({ id: payload.pipelineId }).first();
  if (!pipeline || pipeline.status !== 'success') return [];
  const merged: number[] = [];
  for (const mr of await mergeRequestsWaitingFor(deps.db, pipeline)) {
    if (mr.merge_user_id === null) continue;
    const user: UserRow | undefined = await findUserById(deps.db, mr.merge_user_id);
    const project = await projectOf(deps, mr.target_project_id);
    const source = mr.source_project_id === null ? null : await projectOf(deps, mr.source_project_id);
    if (!user || !project || !source) continue;
    // The source branch still at the pipeline's commit (a push meanwhile resets the wait).
    if ((await readRef(gitdirOf(deps.repos, source), `refs/heads/${mr.source_branch}`)) !== pipeline.sha) continue;
    try {
      await checkMergeable(deps, project, mr, false);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      await unmergeableTodo(deps, mr, user);
      continue;
    }
    try {
      await performMerge(deps, project, mr, user, pipeline.sha, {
        commitMessage: mr.merge_commit_message ?? undefined,
        shouldRemoveSourceBranch: mr.should_remove_source_branch === null ? undefined : !!mr.should_remove_source_branch,
      });
      merged.push(mr.id);
    } catch (err) {
      // The merge itself failed (the target moved into a conflict): GitLab records a merge_error.
      if (!(err instanceof DomainError)) throw err;
    }
  }
  return merged;
}

/** The merge user's `unmergeable` to-do, unless a to-do on the merge request is pending for them. */
async function unmergeableTodo(deps: Deps, mr: MergeRequestRow, user: UserRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const target = { user_id: user.id, target_type: 'MergeRequest', target_id: mr.id, state: 'pending' };
    if (await tx('todos').where(target).first('id')) return;
    const stamp = now();
    await tx('todos').insert({
      ...target,
      project_id: mr.target_project_id,
      author_id: user.id,
      note_id: null,
      action: TODO_ACTIONS.unmergeable,
      created_at: stamp,
      updated_at: stamp,
    });
  });
}
