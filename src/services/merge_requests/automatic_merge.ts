// GitLab 10.8's MergeRequests::MergeWhenPipelineSucceedsService#execute and #cancel: setting a
// merge request to be merged by the asking user when its head pipeline succeeds (its merge
// params — the commit message and the source-branch removal — kept for that merge, and, the
// first time, the merge user and the system note "enabled an automatic merge when the pipeline
// for <sha> succeeds"), and cancelling it ("canceled the automatic merge"). The merge itself
// is run by the pipeline's success (merge_requests/pipeline_success_merges.ts).
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../store/rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { NotAllowed } from '../../store/domain_errors.js';
import { canCancelAutomaticMerge } from '../../policy/merge_requests.js';
import { findMergeRequest } from '../../finders/merge_requests.js';
import { now } from '../../store/time.js';
import { isSqlite } from '../../store/db.js';
import { enqueueJob } from '../../store/job_queue.js';
import { PIPELINE_SUCCESS_JOB, type PipelineSuccessPayload } from './merge_on_success.js';
import { createSystemNote } from '../notes/notes.js';
import type { ProjectContext } from '../repository/file_writes.js';

const noteTarget = (mr: MergeRequestRow) => ({ type: 'MergeRequest' as const, id: mr.id, projectId: mr.target_project_id });

/** MergeWhenPipelineSucceedsService#execute; answers the stored merge request. */
export async function enableAutomaticMerge(
  deps: Deps,
  mr: MergeRequestRow,
  user: UserRow,
  pipelineId: number,
  params: { commitMessage?: string; shouldRemoveSourceBranch?: boolean },
): Promise<MergeRequestRow> {
  await deps.db.transaction(async (tx) => {
    // The pipeline may have succeeded since it was seen active, its merge job finding nothing
    // waiting yet: its status is read under its row lock (a status change holds it until it
    // commits), and the merge is queued here when it already succeeded.
    const status = tx('ci_pipelines').where({ id: pipelineId }).first('status');
    if (!isSqlite(tx)) status.forUpdate();
    const succeeded = (await status)?.status === 'success';
    const current: MergeRequestRow | undefined = await tx('merge_requests').where({ id: mr.id }).first();
    if (!current || current.state !== 'opened') return;
    const mergeParams = { merge_commit_message: params.commitMessage ?? null, should_remove_source_branch: params.shouldRemoveSourceBranch ?? null };
    if (current.merge_when_pipeline_succeeds) {
      // Already waiting: only the merge params change.
      await tx('merge_requests')
        .where({ id: mr.id })
        .update({ ...mergeParams, updated_at: now() });
    } else {
      await tx('merge_requests')
        .where({ id: mr.id })
        .update({ ...mergeParams, merge_when_pipeline_succeeds: true, merge_user_id: user.id, updated_at: now() });
      await createSystemNote(tx, noteTarget(mr), user, `enabled an automatic merge when the pipeline for ${mr.head_sha} succeeds`);
    }
    if (succeeded) await enqueueJob(tx, PIPELINE_SUCCESS_JOB, { pipelineId } satisfies PipelineSuccessPayload);
  });
  return (await findMergeRequest(deps.db, mr.target_project_id, mr.iid))!;
}

/**
 * POST .../cancel_merge_when_pipeline_succeeds (MergeWhenPipelineSucceedsService#cancel):
 * the merge user or anyone who may merge, or the author, else 401. GitLab answers its
 * service result as the body, with the POST's 201 either way.
 */
export async function cancelMergeWhenPipelineSucceeds(deps: Deps, loaded: ProjectContext, mr: MergeRequestRow, user: UserRow): Promise<Record<string, unknown>> {
  const allowed = await canCancelAutomaticMerge(deps.db, loaded.project, loaded.access, user, mr);
  if (!allowed) throw new NotAllowed();
  const cancelled = await deps.db.transaction(async (tx) => {
    const n = await tx('merge_requests')
      .where({ id: mr.id, state: 'opened', merge_when_pipeline_succeeds: true })
      .update({ merge_when_pipeline_succeeds: false, merge_user_id: null, should_remove_source_branch: null, merge_commit_message: null, updated_at: now() });
    if (n) await createSystemNote(tx, noteTarget(mr), user, 'canceled the automatic merge');
    return n > 0;
  });
  if (!cancelled) return { message: "Can't cancel the automatic merge", status: 'error', http_status: 406 };
  return { status: 'success' };
}
