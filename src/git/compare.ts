// Comparing two commits as GitLab 10.8's Gitlab::Git::Compare did: the commits in from..to
// (oldest first, so the last one is `to`), and the diff from the merge base of the two
// (`git diff from...to`) or, when `straight`, from `from` itself.
import fs from 'node:fs';
import git from 'isomorphic-git';
import { cacheFor } from './cache.js';
import { RepoReader, type CommitInfo } from './reader.js';
import { changesBetween, collect, HARD_LIMITS, type FileDiff } from './diff.js';

/** Past this many commits the list is cut (newest kept) and compare_timeout is set. */
export const MAX_COMPARE_COMMITS = 10000;

export interface Comparison {
  commits: CommitInfo[];
  diffs: FileDiff[];
  timeout: boolean;
  same: boolean;
}

/**
 * Commits reachable from `head` but not from `base`, newest first: git's revision walk by
 * commit date, where everything reachable from `base` is marked uninteresting and the walk
 * ends once only uninteresting commits are left to visit.
 */
export async function commitsBetween(reader: RepoReader, base: string, head: string, max: number): Promise<{ commits: CommitInfo[]; truncated: boolean }> {
  const seen = new Map<string, { info: CommitInfo; hidden: boolean }>();
  const queue: { info: CommitInfo; hidden: boolean }[] = [];
  const push = async (oid: string, hidden: boolean) => {
    const known = seen.get(oid);
    if (known) {
      if (hidden && !known.hidden) known.hidden = true; // reached from base too: hide it
      return;
    }
    const info = await reader.commit(oid).catch(() => null);
    if (!info) return; // beyond a shallow clone's boundary
    const node = { info, hidden };
    seen.set(oid, node);
    // Keep the queue ordered newest first (insertion into a sorted array).
    let i = queue.length;
    while (i > 0 && queue[i - 1].info.committer.timestamp < node.info.committer.timestamp) i--;
    queue.splice(i, 0, node);
  };
  await push(base, true);
  await push(head, false);
  const out: CommitInfo[] = [];
  while (queue.length && queue.some((n) => !n.hidden)) {
    const node = queue.shift()!;
    for (const p of node.info.parents) await push(p, node.hidden);
    if (!node.hidden) out.push(node.info);
    if (out.length > max * 2) break; // safety net; hidden ones are removed below
  }
  const visible = out.filter((c) => !seen.get(c.oid)!.hidden);
  return { commits: visible.slice(0, max), truncated: visible.length > max };
}

export async function mergeBase(gitdir: string, a: string, b: string): Promise<string | null> {
  const bases = (await git.findMergeBase({ fs, gitdir, oids: [a, b], cache: cacheFor(gitdir) })) as string[];
  return bases[0] ?? null;
}

/** Compares two resolved commits. */
export async function compareCommits(reader: RepoReader, from: string, to: string, straight: boolean): Promise<Comparison> {
  if (from === to) return { commits: [], diffs: [], timeout: false, same: true };
  const { commits, truncated } = await commitsBetween(reader, from, to, MAX_COMPARE_COMMITS);
  // No common history: GitLab diffed against nothing (Rugged got a nil base).
  const base = straight ? from : await mergeBase(reader.gitdir, from, to);
  const changes = await changesBetween(reader.gitdir, base, to);
  const result = await collect(reader.gitdir, changes, HARD_LIMITS);
  return { commits: commits.reverse(), diffs: result.diffs, timeout: truncated || result.overSafeLimits, same: false };
}
