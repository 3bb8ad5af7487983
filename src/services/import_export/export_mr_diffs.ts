// The merge request diffs of an export (GitLab 10.8's merge_request_diff with its
// merge_request_diff_commits and merge_request_diff_files, as import_export.yml nests them): the
// commits from the merge request's start to its head, newest first, and the files of its diff
// from base to head, read from the repository as the merge request's commits and changes API
// read them, with the same bounds. What a merge request's repository no longer has (a removed
// branch's commits gone by gc) is written empty, as GitLab wrote a diff it could not collect.
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { mergeRequestChanges, mergeRequestCommits } from '../merge_requests/diff.js';

type Row = Record<string, any>;

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** Fills each merge request's merge_request_diff of `tree` (import_export/export_tree.ts's project.json) in place. */
export async function fillMergeRequestDiffs(deps: Deps, project: ProjectWithNamespace, tree: Row): Promise<void> {
  for (const m of tree.merge_requests as Row[]) {
    const diff = m.merge_request_diff as Row;
    const row = { head_sha: diff.head_commit_sha, base_sha: diff.base_commit_sha, start_sha: diff.start_commit_sha } as MergeRequestRow;
    diff.id = m.id;
    diff.merge_request_id = m.id;
    try {
      const commits = await mergeRequestCommits(deps, project, row);
      diff.merge_request_diff_commits = commits.map((c, i) => ({
        authored_date: isoOf(c.author.timestamp),
        committed_date: isoOf(c.committer.timestamp),
        merge_request_diff_id: m.id,
        relative_order: i,
        sha: c.oid,
        author_name: c.author.name,
        author_email: c.author.email,
        committer_name: c.committer.name,
        committer_email: c.committer.email,
        message: c.message,
      }));
      const files = await mergeRequestChanges(deps, project, row);
      diff.merge_request_diff_files = files.map((f, i) => ({
        merge_request_diff_id: m.id,
        relative_order: i,
        utf8_diff: f.diff,
        new_path: f.new_path,
        old_path: f.old_path,
        a_mode: f.a_mode,
        b_mode: f.b_mode,
        new_file: f.new_file,
        renamed_file: f.renamed_file,
        deleted_file: f.deleted_file,
        too_large: f.too_large,
      }));
      diff.real_size = String(files.length);
    } catch {
      diff.state = 'empty';
      diff.merge_request_diff_commits = [];
      diff.merge_request_diff_files = [];
    }
  }
}
