// A row of `merge_request_diffs`: one diff version of a merge request (migration 000061).
export interface MergeRequestDiffRow {
  id: number;
  merge_request_id: number;
  state: string;
  head_commit_sha: string | null;
  base_commit_sha: string | null;
  start_commit_sha: string | null;
  real_size: string | null;
  created_at: string;
}
