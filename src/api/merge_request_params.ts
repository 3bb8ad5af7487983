// The parameters of GitLab 10.8's merge request routes (lib/api/merge_requests.rb: the list
// filters, `optional_params`, update_params_at_least_one_of) and what a user may give of
// them: assignee, milestone, labels and the discussion lock only with admin_merge_request on
// the target project, as IssuableBaseService#filter_params drops the rest. Later GitLab's
// `assignee_ids` (CE keeps the first: one assignee) and `add_labels`/`remove_labels` are
// taken too, with the same permission, for the clients written against it.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { ProjectAccess } from '../policy/projects.js';
import { p, type Parsed, type Schema } from '../http/params.js';
import { commaIdList, finderScope, LABEL_CHANGE_PARAMS, optionalId, scopeValues, SHARED_LIST_PARAMS, sharedListFilters } from './issuable_params.js';
import { MR_ORDERS, MR_SCOPES, MR_STATES, type MergeRequestFilters } from '../finders/merge_requests.js';
import { mergeRequestReaders } from '../policy/merge_requests.js';
import { can, projectSubject } from '../policy/can.js';
import type { MergeRequestInput } from '../services/merge_requests/merge_requests.js';

export const MR_LIST_PARAMS = {
  // A bare `?state` lists everything, as GitLab's finder did with a blank state.
  state: p
    .string()
    .values([...MR_STATES, ''])
    .default('all'),
  order_by: p
    .string()
    .values(MR_ORDERS as unknown as string[])
    .default('created_at'),
  view: p.string().values(['simple']),
  scope: p.string().values(scopeValues(MR_SCOPES)),
  source_branch: p.string(),
  target_branch: p.string(),
  ...SHARED_LIST_PARAMS,
} satisfies Schema;

/** 10.8's `optional_params` of create and update. */
export const MR_OPTIONAL_PARAMS = {
  description: p.string().nullable(), // null clears it
  assignee_id: optionalId(),
  milestone_id: optionalId(),
  labels: p.string(),
  remove_source_branch: p.boolean(),
  allow_maintainer_to_push: p.boolean(),
  // Later GitLab's, next to 10.8's.
  assignee_ids: commaIdList(),
  ...LABEL_CHANGE_PARAMS,
} satisfies Schema;

/** API::MergeRequests.update_params_at_least_one_of, in GitLab's order. */
export const MR_UPDATE_AT_LEAST_ONE = [
  'assignee_id',
  'description',
  'labels',
  'milestone_id',
  'remove_source_branch',
  'state_event',
  'target_branch',
  'title',
  'discussion_locked',
];

/** Later GitLab's names that also make an update (10.8's message is kept when none is given). */
export const MR_UPDATE_LATER = ['assignee_ids', 'add_labels', 'remove_labels'];

/** The finder's filters of a list; `defaultScope` differs between /merge_requests and a project's. */
export function mergeRequestFiltersOf(v: Parsed<typeof MR_LIST_PARAMS> & { iids?: number[] }, defaultScope: MergeRequestFilters['scope']): MergeRequestFilters {
  return {
    state: (v.state || 'all') as MergeRequestFilters['state'],
    scope: (finderScope(v.scope) ?? defaultScope) as MergeRequestFilters['scope'],
    orderBy: v.order_by as MergeRequestFilters['orderBy'],
    sourceBranch: v.source_branch ?? undefined,
    targetBranch: v.target_branch ?? undefined,
    ...sharedListFilters(v),
  };
}

type OptionalValues = Parsed<typeof MR_OPTIONAL_PARAMS> & { discussion_locked?: boolean | null };

/**
 * IssuableBaseService#filter_params: assignee, milestone, labels and the lock only with
 * admin_merge_request on the target; an assignee who cannot read its merge requests is
 * dropped, `0` (or '') unassigns.
 */
export async function mergeRequestInputOf(deps: Deps, user: UserRow, target: ProjectWithNamespace, access: ProjectAccess, v: OptionalValues): Promise<MergeRequestInput> {
  const input: MergeRequestInput = {};
  if (v.description !== undefined) input.description = v.description;
  if (v.allow_maintainer_to_push !== undefined && v.allow_maintainer_to_push !== null) input.allowMaintainerToPush = v.allow_maintainer_to_push;
  if (!can(user, projectSubject(target, access), 'admin_merge_request')) return input;
  if (v.milestone_id !== undefined) input.milestoneId = v.milestone_id === 0 ? null : v.milestone_id;
  if (v.labels !== undefined) input.labels = v.labels ?? '';
  if (v.add_labels) input.addLabels = v.add_labels;
  if (v.remove_labels) input.removeLabels = v.remove_labels;
  if (v.discussion_locked !== undefined) input.discussionLocked = v.discussion_locked;
  // 10.8's assignee_id wins; else the first of assignee_ids, none (or 0) unassigning.
  let assignee: number | null | undefined = v.assignee_id;
  if (assignee === undefined && v.assignee_ids !== undefined) assignee = v.assignee_ids?.[0] ?? null;
  if (assignee !== undefined) {
    if (assignee === null || assignee === 0) input.assigneeId = null;
    else if ((await mergeRequestReaders(deps.db, target, [assignee])).length) input.assigneeId = assignee;
  }
  return input;
}
