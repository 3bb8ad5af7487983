// GitLab 10.8's Entities::MergeRequestDiff (a version in the list) and MergeRequestDiffFull (one
// version with its commits and diffs).
import type { MergeRequestDiffRow } from '../store/merge_request_diff_rows.js';

export function mergeRequestDiffEntity(v: MergeRequestDiffRow): Record<string, unknown> {
  return {
    id: v.id,
    head_commit_sha: v.head_commit_sha,
    base_commit_sha: v.base_commit_sha,
    start_commit_sha: v.start_commit_sha,
    created_at: v.created_at,
    merge_request_id: v.merge_request_id,
    state: v.state,
    real_size: v.real_size,
  };
}
