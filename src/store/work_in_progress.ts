// Whether a merge request is a work in progress (GitLab 10.8's MergeRequest#work_in_progress?):
// its title starts with "[WIP]", "WIP:" or "WIP ". A pure fact of a stored title, shared by
// the entity's `work_in_progress` and the merge service, which refuses to merge one (405).

/** MergeRequest::WIP_REGEX. */
const WIP = /^\s*(\[WIP\]\s*|WIP:\s*|WIP\s+)+\s*/i;

export function workInProgress(title: string): boolean {
  return WIP.test(title);
}
