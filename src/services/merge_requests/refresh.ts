// What a moved branch does to the open merge requests around it (GitLab 10.8's
// MergeRequests::RefreshService), for every ref moved by a git push or an API write, in
// GitLab's order:
// 1. open merge requests whose source branch was deleted are closed (by the pusher);
// 2. open merge requests into the pushed branch whose source head arrived with this push
//    (reachable from the new head, not from the old one) were merged by hand: they are
//    recorded as merged by the pusher, with GitLab's post-merge work (issues closed, event,
//    to-dos) and no merge commit;
// 3. open merge requests whose source or target branch moved get their diff refreshed
//    (head/start/base sha, changes; merge_status back to 'unchecked' when a head moved);
// 4. for those whose source branch was pushed: "merge when pipeline succeeds" is cancelled
//    and the pusher's pending to-dos on them are done.
// It runs as a durable job (GitLab's UpdateMergeRequestsWorker, queue update_merge_requests)
// that the writer performs at once (services/push/ref_updates.ts): the answer to the push or the
// API write reflects it, and a process that dies on the way leaves the job to be run again.
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { gitdirOf } from '../../finders/projects.js';
import { isAncestor } from '../../git/merge.js';
import type { PushedRef } from '../push/pushed_ref.js';
import { refreshDiff } from './diff.js';
import { updateMergeRequest } from './merge_requests.js';
import { mergedByPush, resetMergeWhenPipelineSucceeds } from './post_merge.js';
import { announce } from '../notify.js';
import { findUserById } from '../../finders/users.js';

const BRANCH = 'refs/heads/';
export const UPDATE_MERGE_REQUESTS_JOB = 'update_merge_requests';

export interface UpdateMergeRequestsPayload {
  projectId: number;
  userId: number;
  updates: PushedRef[];
}

/** The job's work: the project and the pusher as they are now (nothing if either is gone). */
export async function refreshMergeRequestsOf(deps: Deps, payload: UpdateMergeRequestsPayload): Promise<boolean> {
  const project = await projectRow(deps, payload.projectId);
  const user: UserRow | undefined = await findUserById(deps.db, payload.userId);
  if (!project || !user) return false;
  await refreshMergeRequests(deps, project, user, payload.updates);
  return true;
}

const blank = (oid: string) => !oid || /^0+$/.test(oid);

async function refreshMergeRequests(deps: Deps, project: ProjectWithNamespace, user: UserRow, updates: PushedRef[]): Promise<void> {
  for (const update of updates) {
    if (!update.ref.startsWith(BRANCH)) continue;
    try {
      await refreshBranch(deps, project, user, update.ref.slice(BRANCH.length), update);
    } catch (err) {
      // The push has landed whatever happens here; the next read or push settles the rest.
      deps.log.warn({ err, project: project.id, ref: update.ref }, 'merge request refresh failed');
    }
  }
}

async function refreshBranch(deps: Deps, project: ProjectWithNamespace, user: UserRow, branch: string, update: PushedRef): Promise<void> {
  const removed = blank(update.newOid);
  const fromSource = (): Promise<MergeRequestRow[]> => deps.db('merge_requests').where({ source_project_id: project.id, source_branch: branch, state: 'opened' }).orderBy('id');

  // 1. A deleted source branch closes its merge requests (close_upon_missing_source_branch_ref).
  if (removed) {
    for (const mr of await fromSource()) {
      const target = mr.target_project_id === project.id ? project : await projectRow(deps, mr.target_project_id);
      if (!target) continue;
      await updateMergeRequest(deps, target, mr, user, { stateEvent: 'close' }, { createLabels: false });
    }
  }

  // 2. Merged by hand: the source head arrived in the target branch with this push.
  if (!removed && !blank(update.oldOid)) {
    const gitdir = gitdirOf(deps.repos, project);
    const into: MergeRequestRow[] = await deps.db('merge_requests').where({ target_project_id: project.id, target_branch: branch, state: 'opened' }).orderBy('id');
    for (const mr of into) {
      if (!mr.head_sha || mr.head_sha === mr.base_sha) continue; // no commits of its own ("empty" diff)
      if (!(await reachable(gitdir, mr.head_sha, update.newOid)) || (await reachable(gitdir, mr.head_sha, update.oldOid))) continue;
      await mergedByPush(deps, project, mr, user);
    }
  }

  // 3. Diff refresh of every open merge request on either side of the branch.
  const intoBranch: MergeRequestRow[] = await deps.db('merge_requests').where({ target_project_id: project.id, target_branch: branch, state: 'opened' }).orderBy('id');
  const source = await fromSource();
  const seen = new Set<number>();
  for (const mr of [...source, ...intoBranch]) {
    if (seen.has(mr.id)) continue;
    seen.add(mr.id);
    try {
      await refreshDiff(deps, mr);
    } catch (err) {
      deps.log.warn({ err, mergeRequest: mr.id }, 'merge request diff refresh failed'); // one broken MR does not stop the others
    }
  }

  // 4. The source branch was pushed: automatic merge cancelled, the pusher's to-dos done.
  if (!removed) {
    for (const mr of await fromSource()) {
      if (mr.merge_when_pipeline_succeeds) await resetMergeWhenPipelineSucceeds(deps, mr);
      await deps.db.transaction((tx) => announce(tx, { name: 'issuableTouched', target: { type: 'MergeRequest', id: mr.id, projectId: mr.target_project_id }, actorId: user.id }));
    }
  }
}

async function reachable(gitdir: string, commit: string, from: string): Promise<boolean> {
  try {
    return await isAncestor(gitdir, commit, from);
  } catch {
    return false; // a commit this repository does not have
  }
}

async function projectRow(deps: Deps, id: number): Promise<ProjectWithNamespace | null> {
  const row = await deps.db('projects').where({ id }).first();
  if (!row) return null;
  return { ...row, namespace: await deps.db('namespaces').where({ id: row.namespace_id }).first() };
}
