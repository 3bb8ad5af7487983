// Facts of a stored merge request row that several layers read: whether it is a work in
// progress (GitLab 10.8's MergeRequest#work_in_progress?: its title starts with "[WIP]",
// "WIP:" or "WIP "; the entity shows it, the merge service refuses to merge one with 405)
// and whether its stored diff was cut at GitLab's limits (the entity's "<n>+" changes count).
import type { MergeRequestRow } from './issuable_rows.js';

/** MergeRequest::WIP_REGEX. */
const WIP = /^\s*(\[WIP\]\s*|WIP:\s*|WIP\s+)+\s*/i;

export function workInProgress(title: string): boolean {
  return WIP.test(title);
}

/** Whether the merge request's stored diff was cut at the limits ("<n>+"). */
export function changesOverflow(mr: MergeRequestRow): boolean {
  return !!mr.changes_overflow;
}
