// What a merge request shows, recomputed from the branches as they are now (GitLab 10.8's
// MergeRequest#reload_diff / MergeRequestDiff): the source head is written to the target
// repository as refs/merge-requests/<iid>/head (fetched from the fork when the source is
// one), then head_sha (source head), start_sha (target head), base_sha (their merge base)
// and changes_count (files changed from base to head) are stored. Either head moving makes
// the cached merge_status stale: it goes back to 'unchecked'. Each new diff is also kept as a
// version (versions.ts). A missing branch keeps the last known values, as GitLab keeps the
// last merge request diff.
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import { findMergeRequest } from '../../finders/merge_requests.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { findProjectByIdOrPath, gitdirOf } from '../../finders/projects.js';
import { readRef } from '../../git/refs.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import { commitsBetween, mergeBase, MAX_COMPARE_COMMITS } from '../../git/compare.js';
import { changesBetween, collect, HARD_LIMITS, type FileDiff } from '../../git/diff.js';
import { RepoReader, type CommitInfo } from '../../git/reader.js';
import { writeMergeRequestHead } from '../../git/merge_refs.js';
import { Lru } from '../../git/lru.js';
import { recordDiffVersion, type VersionShas } from './versions.js';

/** The target repository's directory and the source's (null when the fork is gone). */
async function repositoriesOf(deps: Deps, mr: MergeRequestRow, db: Conn = deps.db): Promise<{ targetDir: string; sourceDir: string | null }> {
  const target = await findProjectByIdOrPath(db, String(mr.target_project_id));
  if (!target) throw new Error(`merge request ${mr.id} has no target project`);
  const targetDir = gitdirOf(deps.repos, target);
  if (mr.source_project_id === null) return { targetDir, sourceDir: null };
  if (mr.source_project_id === mr.target_project_id) return { targetDir, sourceDir: targetDir };
  const source = await findProjectByIdOrPath(db, String(mr.source_project_id));
  return { targetDir, sourceDir: source ? gitdirOf(deps.repos, source) : null };
}

/**
 * Brings the source head into the target repository (refs/merge-requests/<iid>/head, for
 * forks), sets head_sha/start_sha/base_sha and changes_count, and resets merge_status to
 * 'unchecked' when either head moved. Returns the stored row.
 */
export async function refreshDiff(deps: Deps, mr: MergeRequestRow): Promise<MergeRequestRow> {
  const { targetDir, sourceDir } = await repositoriesOf(deps, mr);
  const head = sourceDir ? await writeMergeRequestHead(targetDir, sourceDir, mr.source_branch, mr.iid) : null;
  const start = await readRef(targetDir, `refs/heads/${mr.target_branch}`);
  const values: Partial<MergeRequestRow> = {};
  const headSha = head ?? mr.head_sha;
  const startSha = start ?? mr.start_sha;
  if (headSha !== mr.head_sha) values.head_sha = headSha;
  if (startSha !== mr.start_sha) values.start_sha = startSha;
  const moved = values.head_sha !== undefined || values.start_sha !== undefined;
  let version: VersionShas | null = null;
  if (headSha && (moved || mr.changes_count === null)) {
    // No target branch: GitLab showed the source against nothing.
    const base = startSha ? await mergeBase(targetDir, startSha, headSha).catch(() => null) : null;
    values.base_sha = base;
    const result = await collect(targetDir, await changesBetween(targetDir, base, headSha), HARD_LIMITS);
    diffCache.set(diffKey(base, headSha), result.diffs);
    values.changes_count = result.diffs.length;
    values.changes_overflow = result.overflow;
    version = { head: headSha, base, start: startSha, files: result.diffs.length, overflow: result.overflow };
  }
  if (moved && mr.merge_status !== 'unchecked') values.merge_status = 'unchecked';
  if (Object.keys(values).length === 0) return mr;
  // Timeless, as GitLab's merge_status transitions: updated_at does not move.
  await deps.db.transaction(async (tx) => {
    await tx('merge_requests').where({ id: mr.id }).update(values);
    if (version) await recordDiffVersion(tx, mr.id, version);
  });
  return (await findMergeRequest(deps.db, mr.target_project_id, mr.iid)) ?? { ...mr, ...values };
}

/** MergeRequest#commits: the source's commits not on the target (start..head), newest first. */
export async function mergeRequestCommits(deps: Deps, target: ProjectWithNamespace, mr: MergeRequestRow): Promise<CommitInfo[]> {
  return commitsOfDiff(deps, target, mr.start_sha, mr.head_sha);
}

/** The commits of a diff (start..head), newest first: a merge request's, or one of its versions'. */
export async function commitsOfDiff(deps: Deps, target: ProjectWithNamespace, start: string | null, head: string | null): Promise<CommitInfo[]> {
  if (!head || !start) return [];
  const reader = new RepoReader(gitdirOf(deps.repos, target));
  return (await commitsBetween(reader, start, head, MAX_COMPARE_COMMITS)).commits;
}

/**
 * The merge request's diff from base_sha to head_sha, bounded as GitLab stored merge
 * request diffs (Commit.max_diff_options: 1000 files, 50,000 lines).
 */
export async function mergeRequestChanges(deps: Deps, target: ProjectWithNamespace, mr: MergeRequestRow): Promise<FileDiff[]> {
  return diffOf(deps, target, mr.base_sha, mr.head_sha);
}

/** The diff from `base` to `head` (a merge request's, or one of its versions'), bounded likewise. */
export async function diffOf(deps: Deps, target: ProjectWithNamespace, base: string | null, head: string | null): Promise<FileDiff[]> {
  if (!head) return [];
  // The diff of two commit ids never changes: kept, as GitLab kept merge request diffs.
  const key = diffKey(base, head);
  const cached = diffCache.get(key);
  if (cached) return cached;
  const gitdir = gitdirOf(deps.repos, target);
  const changes = await changesBetween(gitdir, base, head);
  const diffs = (await collect(gitdir, changes, HARD_LIMITS)).diffs;
  diffCache.set(key, diffs);
  return diffs;
}

function diffKey(base: string | null, head: string): string {
  return `${base ?? ''}..${head}`;
}

/** Merge request diffs by commit pair, bounded by their text size (64 MB). */
const diffCache = new Lru<string, FileDiff[]>(64 * 1024 * 1024, (diffs) => diffs.reduce((n, d) => n + d.diff.length + d.old_path.length + d.new_path.length + 64, 64));
