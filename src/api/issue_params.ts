// The parameters of GitLab 10.8's issue routes (lib/api/issues.rb: the list filters and
// `issue_params`) and what a user may give of them: privileged fields only with admin_issue,
// assignees cut to the first (CE) and to those who may read issues, as Issues::*Service
// filter them (a follow-up issue's description: api/issue_follow_up.ts). Later GitLab's
// `add_labels`/`remove_labels` are taken too, with the permission of `labels`.
import type { Deps } from '../deps.js';
import type { LoadedProject } from './core/loaders.js';
import { coerceInteger, p, Param, type Parsed, type Schema } from '../http/params.js';
import { finderScope, LABEL_CHANGE_PARAMS, optionalId, scopeValues, SHARED_LIST_PARAMS, sharedListFilters } from './issuable_params.js';
import { ISSUE_ORDERS, ISSUE_SCOPES, ISSUE_STATES, type IssueFilters } from '../finders/issues.js';
import { issueReaders } from '../policy/issues.js';
import type { IssueInput } from '../services/issues/issues.js';

/** Integers as an array or one value; '' (or an empty array) is the empty list. */
const idList = () =>
  new Param<number[]>((raw) => {
    const list = Array.isArray(raw) ? raw : [raw];
    return list.filter((v) => v !== '' && v !== null).map((v) => coerceInteger(v));
  });

export const ISSUE_LIST_PARAMS = {
  state: p
    .string()
    .values(ISSUE_STATES as unknown as string[])
    .default('all'),
  order_by: p
    .string()
    .values(ISSUE_ORDERS as unknown as string[])
    .default('created_at'),
  iids: p.array(p.integer()),
  scope: p.string().values(scopeValues(ISSUE_SCOPES)),
  ...SHARED_LIST_PARAMS,
} satisfies Schema;

/** 10.8's `issue_params`, shared by create and edit. */
export const ISSUE_EDIT_PARAMS = {
  description: p.string().nullable(), // null clears it
  assignee_ids: idList(),
  assignee_id: optionalId(),
  milestone_id: optionalId(),
  labels: p.string(),
  // A string Rails 4.2 casts to the date column: what it cannot read is nil.
  due_date: p.castDate(),
  confidential: p.boolean(),
  discussion_locked: p.boolean(),
  // Later GitLab's, next to 10.8's `labels`.
  ...LABEL_CHANGE_PARAMS,
} satisfies Schema;

/** The finder's filters of a list; `defaultScope` differs between /issues and the others. */
export function issueFiltersOf(v: Parsed<typeof ISSUE_LIST_PARAMS>, defaultScope: IssueFilters['scope']): IssueFilters {
  return {
    state: v.state as IssueFilters['state'],
    scope: (finderScope(v.scope) ?? defaultScope) as IssueFilters['scope'],
    orderBy: v.order_by as IssueFilters['orderBy'],
    ...sharedListFilters(v),
  };
}

/**
 * The input a user may give: privileged fields only with admin_issue; assignees cut to the
 * first (CE), `0` unassigning, readers only (none readable: left untouched).
 */
export async function issueInputOf(deps: Deps, loaded: LoadedProject, v: Parsed<typeof ISSUE_EDIT_PARAMS>): Promise<IssueInput> {
  const input: IssueInput = {};
  if (v.description !== undefined) input.description = v.description;
  if (v.confidential !== undefined && v.confidential !== null) input.confidential = v.confidential;
  if (!loaded.can('admin_issue')) return input;
  if (v.milestone_id !== undefined) input.milestoneId = v.milestone_id === 0 ? null : v.milestone_id;
  if (v.labels !== undefined) input.labels = v.labels ?? '';
  if (v.add_labels) input.addLabels = v.add_labels;
  if (v.remove_labels) input.removeLabels = v.remove_labels;
  if (v.due_date !== undefined) input.dueDate = v.due_date;
  if (v.discussion_locked !== undefined) input.discussionLocked = v.discussion_locked;
  // The deprecated assignee_id replaces assignee_ids when given.
  let ids: number[] | undefined = v.assignee_ids ?? undefined;
  if (v.assignee_id !== undefined) ids = v.assignee_id === null ? [] : [v.assignee_id];
  if (ids !== undefined) {
    const first = ids.slice(0, 1);
    if (first.length === 0 || first[0] === 0) input.assigneeIds = [];
    else {
      const readable = await issueReaders(deps.db, loaded.project, first);
      if (readable.length) input.assigneeIds = readable;
    }
  }
  return input;
}
