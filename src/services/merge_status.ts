// PLACEHOLDER CONTRACT (issue #5, merging): GitLab's lazy merge status check.
import type { Deps } from '../deps.js';
import type { MergeRequestRow } from '../finders/merge_requests.js';

/**
 * For an open merge request whose merge_status is 'unchecked' (or was checked against
 * another pair of heads): test-merges head_sha into the target head, stores
 * 'can_be_merged' or 'cannot_be_merged' with the pair checked, and returns the row.
 */
export async function ensureMergeStatus(_deps: Deps, mr: MergeRequestRow): Promise<MergeRequestRow> {
  return mr;
}
