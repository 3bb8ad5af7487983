// GitLab's lazy merge status check (MergeRequest#check_if_can_be_merged): a merge request's
// `merge_status` is stored 'unchecked' when a branch moves and settled the first time
// something reads it, by a test merge of `head_sha` into the target branch's current head.
// The stored `merge_status_target_sha` names the target head it was checked against, so a
// target that moved without a refresh (another process, a ref changed behind our back) is
// noticed too. A "broken" merge request (source or target branch missing, no commits of
// its own) cannot be merged. The test merge itself is cached by the pair of commit ids
// (src/git/merge.ts); the row is only written when the answer is new, and only if nobody
// changed the row meanwhile (compare-and-swap on the fields the answer depends on).
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import { findMergeRequest } from '../../finders/merge_requests.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { findProjectByIdOrPath, gitdirOf } from '../../finders/projects.js';
import { readRef } from '../../git/refs.js';
import { isAncestor, testMerge } from '../../git/merge.js';

type MergeStatus = 'can_be_merged' | 'cannot_be_merged';

/** Where a merge request's branches stand now. */
export interface BranchState {
  /** The target branch's head in the target repository, null when the branch is gone. */
  targetHead: string | null;
  /** The source branch's head in the source repository, null when it (or its project) is gone. */
  sourceHead: string | null;
  /** GitLab's `broken?` without the stored status: a branch missing, or no commits of its own. */
  broken: boolean;
}

export async function projectOf(deps: Deps, id: number | null): Promise<ProjectWithNamespace | null> {
  if (id === null) return null;
  return (await findProjectByIdOrPath(deps.db, String(id))) ?? null;
}

// Target project id -> repository directory (a project's path rarely changes; a stale entry
// only costs a fresh check).
const dirs = new Map<number, string>();

async function targetDir(deps: Deps, mr: MergeRequestRow): Promise<string | null> {
  let dir = dirs.get(mr.target_project_id);
  if (!dir) {
    const project = await projectOf(deps, mr.target_project_id);
    if (!project) return null;
    dir = gitdirOf(deps.repos, project);
    if (dirs.size > 10_000) dirs.clear();
    dirs.set(mr.target_project_id, dir);
  }
  return dir;
}

/** The current heads of both branches and whether the merge request is broken. */
export async function branchState(deps: Deps, mr: MergeRequestRow, target?: ProjectWithNamespace | null): Promise<BranchState> {
  const targetProject = target ?? (await projectOf(deps, mr.target_project_id));
  const sourceProject = mr.source_project_id === mr.target_project_id ? targetProject : await projectOf(deps, mr.source_project_id);
  const targetDir = targetProject ? gitdirOf(deps.repos, targetProject) : null;
  const targetHead = targetDir ? await readRef(targetDir, `refs/heads/${mr.target_branch}`) : null;
  const sourceHead = sourceProject ? await readRef(gitdirOf(deps.repos, sourceProject), `refs/heads/${mr.source_branch}`) : null;
  let broken = !targetHead || !sourceHead || !mr.head_sha;
  if (!broken) {
    // No commits of its own: everything on the source is already on the target.
    try {
      broken = await isAncestor(targetDir!, mr.head_sha!, targetHead!);
    } catch {
      broken = true; // the head commit is not in the target repository
    }
  }
  return { targetHead, sourceHead, broken };
}

/** Whether `head` merges into `targetHead` without conflict, in the target repository. */
async function canMerge(gitdir: string, targetHead: string, head: string): Promise<boolean> {
  try {
    return (await testMerge(gitdir, targetHead, head)).clean;
  } catch {
    return false;
  }
}

/**
 * For an open merge request whose merge_status is 'unchecked' (or was checked against
 * another pair of heads): test-merges head_sha into the target head, stores
 * 'can_be_merged' or 'cannot_be_merged' with the pair checked, and returns the row.
 */
export async function ensureMergeStatus(deps: Deps, mr: MergeRequestRow): Promise<MergeRequestRow> {
  if (mr.state !== 'opened') return mr;
  // The common case, a settled answer for the current target head, costs one ref read.
  if (mr.merge_status !== 'unchecked' && mr.merge_status_target_sha !== null) {
    const dir = await targetDir(deps, mr);
    if (dir && (await readRef(dir, `refs/heads/${mr.target_branch}`)) === mr.merge_status_target_sha) return mr;
  }
  const target = await projectOf(deps, mr.target_project_id);
  if (!target) return mr;
  const state = await branchState(deps, mr, target);
  if (mr.merge_status !== 'unchecked' && mr.merge_status_target_sha === state.targetHead) return mr;

  let status: MergeStatus = 'cannot_be_merged';
  if (!state.broken) {
    const ok = await canMerge(gitdirOf(deps.repos, target), state.targetHead!, mr.head_sha!);
    status = ok ? 'can_be_merged' : 'cannot_be_merged';
  }
  // Only if the row still describes the heads that were checked.
  await deps
    .db('merge_requests')
    .where({ id: mr.id, head_sha: mr.head_sha, merge_status: mr.merge_status, state: 'opened' })
    .where((q) => (mr.merge_status_target_sha === null ? q.whereNull('merge_status_target_sha') : q.where('merge_status_target_sha', mr.merge_status_target_sha)))
    .update({ merge_status: status, merge_status_target_sha: state.targetHead });
  return (await findMergeRequest(deps.db, mr.target_project_id, mr.iid)) ?? mr;
}
