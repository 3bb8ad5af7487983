// Accepting a merge request (GitLab 10.8's API `merge` endpoint with MergeRequests::
// MergeService, FfMergeService, PostMergeService and MergeWhenPipelineSucceedsService).
//
// The checks, in GitLab's order: the user may update the target branch (push or merge
// rights under branch protection: merge_merge_request in policy/merge_requests.ts, which the
// route asks first) else 401; the merge request is in a mergeable state (open,
// not WIP, not broken: both branches exist and it has commits of its own; the pipeline rule
// of only_allow_merge_if_pipeline_succeeds (merge_requests/mergeable_ci_state.ts) unless merging when the
// pipeline succeeds; under only_allow_merge_if_all_discussions_are_resolved, no
// discussion is left to resolve) else 405; it merges without conflict and, under `rebase_merge`
// and `ff`, the target head is an ancestor of the source head, else 406; `sha` names the
// source head else 409.
//
// The merge: `merge` and `rebase_merge` write a merge commit (target head, source head; the
// user as author and committer), `ff` moves the target to the source head and keeps
// `merge_commit_sha` null. The target branch moves by compare-and-swap; a target that moved
// meanwhile is merged again against its new head (GitLab merged against the branch as it
// was when its merge ran). Then, as a push would: push events and the refresh of the other
// merge requests (push/refs_moved.ts), once the merge request is recorded as merged with its event,
// its to-dos done and the issues it closes closed (PostMergeService), all in one
// transaction. Last, the source branch is removed when asked and allowed. Merging when the
// pipeline succeeds waits while the head pipeline is active (merge_requests/automatic_merge.ts).
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { CannotMerge, DomainError, NotMergeable, RefMoved, ShaMismatch } from '../../store/domain_errors.js';
import { workInProgress } from '../../store/merge_request_facts.js';
import { findMergeRequest } from '../../finders/merge_requests.js';
import { hasUnresolvedDiscussions } from '../../finders/discussions.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { fullPathOf, gitdirOf } from '../../finders/projects.js';
import { canRemoveSourceBranch } from '../../policy/merge_requests.js';
import { projectAccess } from '../../policy/projects.js';
import { readRef } from '../../git/refs.js';
import { fastForwardPossible, isAncestor, writeMergeCommit } from '../../git/merge.js';
import { moveBranch, type ProjectContext } from '../repository/file_writes.js';
import { deleteBranch } from '../repository/branch_writes.js';
import { branchState, ensureMergeStatus, projectOf } from './merge_status.js';
import { issueReference, mergeRequestClosesIssues } from './closing_issues.js';
import { closableIssues, recordMerged } from './post_merge.js';
import { headPipelineOf } from '../../finders/merge_request_pipelines.js';
import { ACTIVE } from '../../store/ci_statuses.js';
import { mergeableCiState } from './mergeable_ci_state.js';
import { enableAutomaticMerge } from './automatic_merge.js';
import { afterRefsMoved } from '../push/refs_moved.js';
import { findUserById } from '../../finders/users.js';

export interface MergeParams {
  commitMessage?: string;
  shouldRemoveSourceBranch?: boolean;
  mergeWhenPipelineSucceeds?: boolean;
  sha?: string;
}

/** Rails' Array#to_sentence. */
function toSentence(items: string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** MergeRequest#merge_commit_message: the default message of the merge commit. */
async function defaultMergeCommitMessage(deps: Deps, project: ProjectWithNamespace, mr: MergeRequestRow): Promise<string> {
  const author = mr.author_id === null ? null : ((await findUserById(deps.db, mr.author_id)) ?? null);
  const closes = await mergeRequestClosesIssues(deps, project, mr, author);
  const refs: string[] = [];
  for (const issue of closes) {
    const issueProject = issue.project_id === project.id ? project : await projectOf(deps, issue.project_id);
    if (issueProject) refs.push(issueReference(issue, issueProject, project));
  }
  const lines = [`Merge branch '${mr.source_branch}' into '${mr.target_branch}'`, mr.title];
  if (refs.length) lines.push(`Closes ${toSentence(refs)}`);
  lines.push(`See merge request ${fullPathOf(project)}!${mr.iid}`);
  return lines.join('\n\n');
}

/**
 * MergeRequest#mergeable_state? then #mergeable?, as the API checks them: open, not WIP, not
 * broken, the pipeline rule (unless `skipCiCheck`), the discussions rule, else 405; the test
 * merge and, under `rebase_merge` and `ff`, a possible fast-forward, else 406.
 */
export async function checkMergeable(deps: Deps, project: ProjectWithNamespace, mr: MergeRequestRow, skipCiCheck: boolean): Promise<void> {
  if (mr.state !== 'opened' || workInProgress(mr.title)) throw new NotMergeable();
  const state = await branchState(deps, mr, project);
  if (state.broken) throw new NotMergeable();
  if (!skipCiCheck && !(await mergeableCiState(deps, project, mr))) throw new NotMergeable();
  // mergeable_discussions_state?: under the project's rule, no discussion left to resolve.
  if (project.only_allow_merge_if_all_discussions_are_resolved && (await hasUnresolvedDiscussions(deps.db, mr.id))) throw new NotMergeable();

  // mergeable?: the (cached) test merge, and fast-forward where the merge method needs it.
  const checked = await ensureMergeStatus(deps, mr);
  if (checked.merge_status !== 'can_be_merged') throw new CannotMerge();
  const gitdir = gitdirOf(deps.repos, project);
  if (project.merge_method !== 'merge' && !(await fastForwardPossible(gitdir, state.targetHead!, mr.head_sha!))) throw new CannotMerge();
}

/**
 * PUT .../merge. `loaded` is the merge request's (target) project as the request sees it;
 * the caller has asked merge_merge_request of the merge request (policy/can.ts). Returns the merge request as stored afterwards. With merge_when_pipeline_succeeds the
 * pipeline rule is not checked first (GitLab's skip_ci_check): while the head pipeline is
 * pending or running the merge request is set to wait for it; otherwise it merges now, unless
 * the pipeline rule fails, which MergeService refuses quietly (GitLab records a merge_error
 * and the API answers the merge request unmerged, 200).
 */
export async function acceptMergeRequest(deps: Deps, loaded: ProjectContext, mr: MergeRequestRow, user: UserRow, params: MergeParams): Promise<MergeRequestRow> {
  const { project } = loaded;
  const automatic = params.mergeWhenPipelineSucceeds === true;
  await checkMergeable(deps, project, mr, automatic);
  const head = mr.head_sha!;
  if (params.sha !== undefined && params.sha !== head) {
    throw new ShaMismatch(head);
  }

  if (automatic) {
    const pipeline = await headPipelineOf(deps.db, mr);
    if (pipeline && ACTIVE.includes(pipeline.status)) {
      return enableAutomaticMerge(deps, mr, user, pipeline.id, { commitMessage: params.commitMessage, shouldRemoveSourceBranch: params.shouldRemoveSourceBranch });
    }
    if (!(await mergeableCiState(deps, project, mr))) return mr;
  }
  await performMerge(deps, project, mr, user, head, params);
  return (await findMergeRequest(deps.db, mr.target_project_id, mr.iid))!;
}

/**
 * MergeService#execute once the checks passed: the merge written and the target moved, the
 * merge recorded (PostMergeService) with the push's after-work, and the source branch removed
 * when asked (or forced) and allowed.
 */
export async function performMerge(
  deps: Deps,
  project: ProjectWithNamespace,
  mr: MergeRequestRow,
  user: UserRow,
  head: string,
  params: Pick<MergeParams, 'commitMessage' | 'shouldRemoveSourceBranch'>,
): Promise<void> {
  const message = (params.commitMessage ?? (await defaultMergeCommitMessage(deps, project, mr))).replace(/\r/g, '');
  const moved = await mergeIntoTarget(deps, project, mr, user, head, message);

  const closes = await closableIssues(deps, project, mr, user);
  await recordMerged(deps, mr, user, moved.mergeCommitSha, closes);
  await afterRefsMoved(deps, { project, user: user, updates: [{ ref: `refs/heads/${mr.target_branch}`, oldOid: moved.oldOid, newOid: moved.newOid }], statistics: 'now' });

  const forceRemove = !!mr.force_remove_source_branch;
  if (params.shouldRemoveSourceBranch ?? forceRemove) await removeSourceBranch(deps, mr, forceRemove ? null : user, head);
}

/**
 * Writes the merge (or fast-forwards) and moves the target branch by compare-and-swap,
 * merging again when the target moved meanwhile.
 */
async function mergeIntoTarget(
  deps: Deps,
  project: ProjectWithNamespace,
  mr: MergeRequestRow,
  user: UserRow,
  head: string,
  message: string,
): Promise<{ oldOid: string; newOid: string; mergeCommitSha: string | null }> {
  const gitdir = gitdirOf(deps.repos, project);
  for (let attempt = 0; attempt < 3; attempt++) {
    const targetHead = await readRef(gitdir, `refs/heads/${mr.target_branch}`);
    if (!targetHead) throw new NotMergeable();
    // Merged meanwhile (a concurrent merge, a push): nothing of its own is left to merge.
    if (await isAncestor(gitdir, head, targetHead)) throw new NotMergeable();
    let newOid: string | null;
    let mergeCommitSha: string | null;
    if (project.merge_method === 'ff') {
      if (!(await fastForwardPossible(gitdir, targetHead, head))) throw new CannotMerge();
      newOid = head;
      mergeCommitSha = null;
    } else {
      if (project.merge_method === 'rebase_merge' && !(await fastForwardPossible(gitdir, targetHead, head))) throw new CannotMerge();
      const sig = { name: user.name, email: user.email, timestamp: Math.floor(Date.now() / 1000) };
      newOid = await writeMergeCommit(gitdir, { ours: targetHead, theirs: head, message, author: sig, committer: sig });
      if (!newOid) throw new CannotMerge();
      mergeCommitSha = newOid;
    }
    try {
      await moveBranch(deps, project, mr.target_branch, newOid, targetHead);
      return { oldOid: targetHead, newOid, mergeCommitSha };
    } catch (err) {
      // The target moved since it was read: merge against its new head.
      if (err instanceof RefMoved && attempt < 2) continue;
      if (err instanceof RefMoved) throw new CannotMerge();
      throw err;
    }
  }
  throw new CannotMerge();
}

/**
 * MergeService#after_merge's branch removal: by `user`, or (force_remove_source_branch) by
 * the author; only when MergeRequest#can_remove_source_branch? holds for them (not
 * protected, not the default branch, push rights, the branch still at the merged head).
 * A refusal is quiet, as in GitLab.
 */
async function removeSourceBranch(deps: Deps, mr: MergeRequestRow, user: UserRow | null, head: string): Promise<boolean> {
  const deleter = user ?? (mr.author_id === null ? null : ((await findUserById(deps.db, mr.author_id)) ?? null));
  if (!deleter) return false;
  const source = await projectOf(deps, mr.source_project_id);
  if (!source) return false;
  const access = await projectAccess(deps.db, deleter, source);
  if (!(await canRemoveSourceBranch(deps.db, deleter, source, access, mr.source_branch))) return false;
  const current = await readRef(gitdirOf(deps.repos, source), `refs/heads/${mr.source_branch}`);
  if (current !== head) return false;
  try {
    await deleteBranch(deps, { project: source, access, user: deleter }, mr.source_branch, head);
    return true;
  } catch (err) {
    if (err instanceof DomainError) return false;
    throw err;
  }
}
