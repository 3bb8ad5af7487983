// Marking an existing project as a fork, and unmarking it (GitLab 10.8's ForkService with a
// project to link, and UnlinkForkService): the link is `forked_from_id`, which the counter
// triggers follow (the parent's forks_count). Linking a project that is already a fork does
// nothing (the API answers 409). Unlinking closes the merge requests opened from the project
// into the rest of its fork network, by the user, as 10.8 does, then drops the link. Not
// done: 10.8 also links the parent's Git LFS objects to the unlinked project.
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { now } from '../../store/time.js';
import { findProjectByIdOrPath } from '../../finders/projects.js';
import { updateMergeRequest } from '../merge_requests/merge_requests.js';

/** Links `project` to `parent`; false when it already is a fork (nothing changes). */
export async function linkFork(deps: Deps, project: ProjectWithNamespace, parent: ProjectWithNamespace): Promise<boolean> {
  const linked = await deps.db('projects').where({ id: project.id }).whereNull('forked_from_id').update({ forked_from_id: parent.id, updated_at: now() });
  return linked > 0;
}

/** Unlinks `project` from its parent; false when it is no fork. */
export async function unlinkFork(deps: Deps, project: ProjectWithNamespace, user: UserRow): Promise<boolean> {
  if (project.forked_from_id === null) return false;
  const open: MergeRequestRow[] = await deps
    .db('merge_requests')
    .where({ source_project_id: project.id, state: 'opened' })
    .whereNot({ target_project_id: project.id })
    .orderBy('id');
  for (const mr of open) {
    const target = await findProjectByIdOrPath(deps.db, String(mr.target_project_id));
    if (target) await updateMergeRequest(deps, target, mr, user, { stateEvent: 'close' }, { createLabels: false });
  }
  const unlinked = await deps.db('projects').where({ id: project.id }).whereNotNull('forked_from_id').update({ forked_from_id: null, updated_at: now() });
  return unlinked > 0;
}
