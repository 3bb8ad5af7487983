// What merging records, whether Wharf merged through the API (merge_requests/merges.ts) or a push to the
// target branch merged by hand (merge_requests/refresh.ts): GitLab 10.8's PostMergeService
// (the issues the merge request closes closed, the merge request merged, its `merged`
// event, its to-dos done, in one transaction) and MergeRequest#reset_merge_when_pipeline_succeeds.
// Kept apart from the ref writers so that the after-move work can record a merge without
// importing the code that moves refs (which itself runs the after-move work).
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { MergeRequestRow, IssueRow } from '../../store/issuable_rows.js';
import { assigneeIdsOf } from '../../finders/issues.js';
import { projectAccess } from '../../policy/projects.js';
import { canUpdateIssue } from '../../policy/issues.js';
import { now } from '../../store/time.js';
import { announce } from '../notify.js';
import { updateIssue } from '../issues/issues.js';
import { projectOf } from './merge_status.js';
import { mergeRequestClosesIssues } from './closing_issues.js';

/** The issues merging closes that the user may close (PostMergeService#close_issues). */
export async function closableIssues(deps: Deps, project: ProjectWithNamespace, mr: MergeRequestRow, user: UserRow): Promise<IssueRow[]> {
  const out: IssueRow[] = [];
  for (const issue of await mergeRequestClosesIssues(deps, project, mr, user)) {
    if (issue.state !== 'opened') continue;
    const issueProject = issue.project_id === project.id ? project : await projectOf(deps, issue.project_id);
    if (!issueProject) continue;
    const access = await projectAccess(deps.db, user, issueProject);
    const facts = { confidential: issue.confidential, author_id: issue.author_id, assigneeIds: await assigneeIdsOf(deps.db, issue.id) };
    if (canUpdateIssue(user, issueProject, access, facts)) out.push(issue);
  }
  return out;
}

/**
 * PostMergeService: in one transaction, the issues closed, the merge request merged (only
 * if still open: a concurrent merge or refresh recorded it first otherwise), its event and
 * its to-dos done. Returns whether this call recorded the merge.
 */
export async function recordMerged(deps: Deps, mr: MergeRequestRow, user: UserRow, mergeCommitSha: string | null, closes: IssueRow[]): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const stamp = now();
    const n = await tx('merge_requests').where({ id: mr.id, state: 'opened' }).update({
      state: 'merged',
      merged_at: stamp,
      merged_by_id: user.id,
      merge_commit_sha: mergeCommitSha,
      merge_when_pipeline_succeeds: false,
      updated_at: stamp,
    });
    if (!n) return false;
    for (const issue of closes) await updateIssue(tx, issue, user, { stateEvent: 'close' }, { createLabels: false });
    await announce(tx, { name: 'mergeRequestMerged', mergeRequest: mr, actor: user, at: stamp });
    return true;
  });
}

/** The check of a merge request that a push to its target branch merged by hand. */
export async function mergedByPush(deps: Deps, project: ProjectWithNamespace, mr: MergeRequestRow, user: UserRow): Promise<boolean> {
  const closes = await closableIssues(deps, project, mr, user);
  return recordMerged(deps, mr, user, null, closes);
}

/** MergeRequest#reset_merge_when_pipeline_succeeds (its merge params forgotten too). */
export async function resetMergeWhenPipelineSucceeds(deps: Deps, mr: MergeRequestRow): Promise<void> {
  await deps.db('merge_requests').where({ id: mr.id }).update({ merge_when_pipeline_succeeds: false, merge_user_id: null, should_remove_source_branch: null, updated_at: now() });
}
