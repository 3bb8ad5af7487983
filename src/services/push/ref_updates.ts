// What every moved ref sets off, whether the push came over git or through the API (files,
// commits, branches, merges): GitLab's push events and the refresh of the merge requests
// whose source or target branch moved (a durable job run at once: see
// merge_requests/refresh.ts), the push's CI pipelines (a durable job: ci/push_pipelines.ts),
// and the push counted for housekeeping (housekeeping.ts). One
// entry point so that both paths agree.
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { recordPushEvents } from './push_events.js';
import { countPushForHousekeeping } from '../repository/housekeeping.js';
import { UPDATE_MERGE_REQUESTS_JOB, type UpdateMergeRequestsPayload } from '../merge_requests/refresh.js';
import type { PushedRef } from './pushed_ref.js';
import { queuePushPipelines } from '../ci/push_pipelines.js';

export async function refsUpdated(deps: Deps, project: ProjectWithNamespace, user: UserRow, updates: PushedRef[]): Promise<void> {
  if (!updates.length) return;
  await recordPushEvents(deps, project, user, updates);
  await queuePushPipelines(deps.db, { projectId: project.id, userId: user.id, updates });
  const refresh: UpdateMergeRequestsPayload = { projectId: project.id, userId: user.id, updates };
  await deps.jobs.perform(UPDATE_MERGE_REQUESTS_JOB, refresh, { queue: 'update_merge_requests' });
  try {
    await countPushForHousekeeping(deps, project.id);
  } catch (err) {
    deps.log.warn({ err, project: project.id }, 'push not counted for housekeeping'); // the push has landed
  }
}
