// Walking commit history for the write side: how many commits a branch has (project
// statistics), which commits a head reaches (merged branches), and the last commit that
// changed a path (the `last_commit_id` check of file edits).
import fs from 'node:fs';
import git from 'isomorphic-git';
import { cacheFor } from './cache.js';

interface Node {
  parents: string[];
  tree: string;
  time: number;
}

class Walker {
  private readonly cache: object;
  private readonly nodes = new Map<string, Node>();
  private readonly paths = new Map<string, string | null>();

  constructor(readonly gitdir: string) {
    this.cache = cacheFor(gitdir);
  }

  async node(oid: string): Promise<Node> {
    let n = this.nodes.get(oid);
    if (!n) {
      const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache });
      n = { parents: commit.parent, tree: commit.tree, time: commit.committer.timestamp };
      this.nodes.set(oid, n);
    }
    return n;
  }

  /** The object id at `segments` inside tree `tree`, or null. */
  async at(tree: string, segments: string[]): Promise<string | null> {
    const key = `${tree}:${segments.join('/')}`;
    if (this.paths.has(key)) return this.paths.get(key)!;
    let oid: string | null = tree;
    for (const name of segments) {
      try {
        const { tree: entries } = await git.readTree({ fs, gitdir: this.gitdir, oid: oid!, cache: this.cache });
        oid = entries.find((e) => e.path === name)?.oid ?? null;
      } catch {
        oid = null; // not a tree
      }
      if (oid === null) break;
    }
    this.paths.set(key, oid);
    return oid;
  }
}

/** Every commit reachable from `head` (inclusive). */
export async function reachableFrom(gitdir: string, head: string): Promise<Set<string>> {
  const w = new Walker(gitdir);
  const seen = new Set<string>([head]);
  const queue = [head];
  while (queue.length) {
    for (const p of (await w.node(queue.pop()!)).parents) {
      if (!seen.has(p)) {
        seen.add(p);
        queue.push(p);
      }
    }
  }
  return seen;
}

// Commit counts by head: a branch that grew by single-parent commits is counted from the
// previous answer instead of walking its whole history again. Correct for any process,
// since a count is a pure function of the head.
const counted = new Map<string, { head: string; count: number }>();
const MAX_STEPS = 1000;

export async function countCommits(gitdir: string, head: string): Promise<number> {
  const previous = counted.get(gitdir);
  let count: number | null = null;
  if (previous) {
    const w = new Walker(gitdir);
    let oid = head;
    for (let steps = 0; steps <= MAX_STEPS; steps++) {
      if (oid === previous.head) {
        count = previous.count + steps;
        break;
      }
      const parents = (await w.node(oid)).parents;
      if (parents.length !== 1) break;
      oid = parents[0];
    }
  }
  if (count === null) count = (await reachableFrom(gitdir, head)).size;
  counted.delete(gitdir);
  counted.set(gitdir, { head, count });
  if (counted.size > 256) counted.delete(counted.keys().next().value!);
  return count;
}

/**
 * The newest commit reachable from `start` that changed `segments`, as `git log -1 -- path`
 * finds it: newest committer date first, following a merge's parent that left the path
 * unchanged. Null when the path never existed.
 */
export async function lastCommitForPath(gitdir: string, start: string, segments: string[]): Promise<string | null> {
  const w = new Walker(gitdir);
  const queue: { oid: string; time: number }[] = [{ oid: start, time: (await w.node(start)).time }];
  const queued = new Set([start]);
  while (queue.length) {
    queue.sort((a, b) => a.time - b.time);
    const { oid } = queue.pop()!;
    const node = await w.node(oid);
    const here = await w.at(node.tree, segments);
    if (!node.parents.length) {
      if (here !== null) return oid;
      continue;
    }
    let same: string | null = null;
    for (const p of node.parents) {
      if ((await w.at((await w.node(p)).tree, segments)) === here) {
        same = p;
        break;
      }
    }
    if (same === null) return oid; // differs from every parent: this commit changed it
    if (!queued.has(same)) {
      queued.add(same);
      queue.push({ oid: same, time: (await w.node(same)).time });
    }
  }
  return null;
}

/**
 * The names whose tip is reachable from `root` without being `root` itself: GitLab's merged
 * branches (`git branch --merged <root>` minus branches at the root commit). Stops walking
 * as soon as every tip is found.
 */
export async function mergedInto(gitdir: string, root: string, tips: Map<string, string>): Promise<Set<string>> {
  const wanted = new Set([...tips.values()].filter((t) => t !== root));
  const found = new Set<string>();
  if (wanted.size) {
    const w = new Walker(gitdir);
    const seen = new Set<string>([root]);
    const queue = [root];
    while (queue.length && found.size < wanted.size) {
      const oid = queue.pop()!;
      if (wanted.has(oid)) found.add(oid);
      for (const p of (await w.node(oid)).parents) {
        if (!seen.has(p)) {
          seen.add(p);
          queue.push(p);
        }
      }
    }
  }
  return new Set([...tips].filter(([, tip]) => found.has(tip)).map(([name]) => name));
}
