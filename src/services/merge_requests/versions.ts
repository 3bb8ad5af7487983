// Recording a merge request's diff versions (GitLab 10.8's MergeRequest#create_merge_request_diff,
// called by reload_diff): a new version each time the diff was computed anew because the source
// or the target head moved (and the first time), with its three commits, `state` (`collected`,
// or `overflow` when the diff went past GitLab's limits) and `real_size` (the files changed,
// `"<n>+"` past the limits).
import type { Conn } from '../../store/db.js';
import { now } from '../../store/time.js';

export interface VersionShas {
  head: string;
  base: string | null;
  start: string | null;
  files: number;
  overflow: boolean;
}

export async function recordDiffVersion(db: Conn, mergeRequestId: number, v: VersionShas): Promise<void> {
  await db('merge_request_diffs').insert({
    merge_request_id: mergeRequestId,
    state: v.overflow ? 'overflow' : 'collected',
    head_commit_sha: v.head,
    base_commit_sha: v.base,
    start_commit_sha: v.start,
    real_size: v.overflow ? `${v.files}+` : String(v.files),
    created_at: now(),
  });
}
