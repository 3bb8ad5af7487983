// PLACEHOLDER CONTRACT (issue #5, merge request core): recomputes what a merge request shows
// from the branches as they are now.
import type { Deps } from '../deps.js';
import type { MergeRequestRow } from '../finders/merge_requests.js';

/**
 * Brings the source head into the target repository (refs/merge-requests/<iid>/head, for
 * forks), sets head_sha/start_sha/base_sha and changes_count, and resets merge_status to
 * 'unchecked' when either head moved. Returns the stored row.
 */
export async function refreshDiff(_deps: Deps, mr: MergeRequestRow): Promise<MergeRequestRow> {
  return mr;
}
