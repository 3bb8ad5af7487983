// Comparing two commits as GitLab 10.8's Gitlab::Git::Compare did: the commits in from..to
// (oldest first, so the last one is `to`), and the diff from the merge base of the two
// (`git diff from...to`) or, when `straight`, from `from` itself.
import fs from 'node:fs';
import git from './iso.js';
import { cacheFor } from './cache.js';
import { shallowCommits } from './odb.js';
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
  const shallow = shallowCommits(reader.gitdir);
  await push(base, true);
  await push(head, false);
  const out: CommitInfo[] = [];
  while (queue.length && queue.some((n) => !n.hidden)) {
    const node = queue.shift()!;
    for (const p of shallow.has(node.info.oid) ? [] : node.info.parents) await push(p, node.hidden);
    if (!node.hidden) out.push(node.info);
    if (out.length > max * 2) break; // safety net; hidden ones are removed below
  }
  const visible = out.filter((c) => !seen.get(c.oid)!.hidden);
  return { commits: visible.slice(0, max), truncated: visible.length > max };
}

const P1 = 1;
const P2 = 2;
const STALE = 4;

/**
 * git's paint_down_to_common: walk both histories newest first, marking which side reaches
 * each commit; a commit reached from both is a candidate and everything below it is stale.
 * Returns the candidates (a superset of the merge bases; one candidate is the merge base).
 */
async function mergeBaseCandidates(reader: RepoReader, a: string, b: string): Promise<string[]> {
  const flags = new Map<string, number>();
  const queue: CommitInfo[] = [];
  const queued = new Set<string>();
  let live = 0; // queued commits that are not stale
  const push = (c: CommitInfo) => {
    let i = queue.length;
    while (i > 0 && queue[i - 1].committer.timestamp < c.committer.timestamp) i--;
    queue.splice(i, 0, c);
    queued.add(c.oid);
    if (!(flags.get(c.oid)! & STALE)) live++;
  };
  flags.set(a, P1);
  flags.set(b, (flags.get(b) ?? 0) | P2);
  push(await reader.commit(a));
  if (b !== a) push(await reader.commit(b));
  // A shallow clone's boundary commits have no parents, for git as for isomorphic-git.
  const shallow = shallowCommits(reader.gitdir);
  const result: string[] = [];
  while (live > 0 && queue.length) {
    const c = queue.shift()!;
    queued.delete(c.oid);
    let f = flags.get(c.oid)!;
    if (!(f & STALE)) live--;
    if ((f & (P1 | P2)) === (P1 | P2)) {
      if (!(f & STALE)) result.push(c.oid);
      f |= STALE;
      flags.set(c.oid, f);
    }
    const mark = f & (P1 | P2 | STALE);
    for (const p of shallow.has(c.oid) ? [] : c.parents) {
      const pf = flags.get(p) ?? 0;
      if ((pf & mark) === mark) continue;
      if (queued.has(p)) {
        if (!(pf & STALE) && mark & STALE) live--;
        flags.set(p, pf | mark);
        continue;
      }
      const pc = await reader.commit(p).catch(() => null);
      if (!pc) continue; // beyond a shallow clone's boundary
      flags.set(p, pf | mark);
      push(pc);
    }
  }
  return result;
}

export async function mergeBase(gitdir: string, a: string, b: string): Promise<string | null> {
  const reader = new RepoReader(gitdir);
  const candidates = await mergeBaseCandidates(reader, a, b).catch(() => null);
  if (candidates && candidates.length <= 1) return candidates[0] ?? null;
  // Several candidates (criss-cross merges): isomorphic-git removes the redundant ones.
  const bases = (await git.findMergeBase({ fs, gitdir, oids: [a, b], cache: cacheFor(gitdir) })) as string[];
  if (bases.length <= 1) return bases[0] ?? null;
  // git (and libgit2, which GitLab asked) lists the merge bases newest commit date first and
  // answers the first; isomorphic-git's order is its own.
  const dated = await Promise.all(bases.map(async (oid) => ({ oid, t: (await reader.commit(oid)).committer.timestamp })));
  return dated.reduce((best, c) => (c.t > best.t ? c : best)).oid;
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
