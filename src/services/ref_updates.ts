// What every moved ref sets off, whether the push came over git or through the API (files,
// commits, branches, merges): GitLab's push events and the refresh of the merge requests
// whose source or target branch moved. One entry point so that both paths agree.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { recordPushEvents } from './push_events.js';
import { refreshMergeRequests } from './merge_request_refresh.js';
import type { PushedRef } from './pushed_ref.js';

export async function refsUpdated(deps: Deps, project: ProjectWithNamespace, user: UserRow, updates: PushedRef[]): Promise<void> {
  if (!updates.length) return;
  await recordPushEvents(deps, project, user, updates);
  await refreshMergeRequests(deps, project, user, updates);
}
