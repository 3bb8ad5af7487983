// Walking commit history for the write side: how many commits a branch has (project
// statistics) and which commits a head reaches (merged branches). The last commit of a path
// is log.ts's `lastCommitFor`.
import { RepoReader } from './reader.js';

/** A commit's parents, through the repository's reader (pack reads and commit cache shared). */
function parentsOf(reader: RepoReader, oid: string): Promise<string[]> {
  return reader.commit(oid).then((c) => c.parents);
}

/** Every commit reachable from `head` (inclusive). */
async function reachableFrom(gitdir: string, head: string): Promise<Set<string>> {
  const reader = new RepoReader(gitdir);
  const seen = new Set<string>([head]);
  const queue = [head];
  while (queue.length) {
    for (const p of await parentsOf(reader, queue.pop()!)) {
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
    const reader = new RepoReader(gitdir);
    let oid = head;
    for (let steps = 0; steps <= MAX_STEPS; steps++) {
      if (oid === previous.head) {
        count = previous.count + steps;
        break;
      }
      const parents = await parentsOf(reader, oid);
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
 * The names whose tip is reachable from `root` without being `root` itself: GitLab's merged
 * branches (`git branch --merged <root>` minus branches at the root commit). Stops walking
 * as soon as every tip is found.
 */
export async function mergedInto(gitdir: string, root: string, tips: Map<string, string>): Promise<Set<string>> {
  const wanted = new Set([...tips.values()].filter((t) => t !== root));
  const found = new Set<string>();
  if (wanted.size) {
    const reader = new RepoReader(gitdir);
    const seen = new Set<string>([root]);
    const queue = [root];
    while (queue.length && found.size < wanted.size) {
      const oid = queue.pop()!;
      if (wanted.has(oid)) found.add(oid);
      for (const p of await parentsOf(reader, oid)) {
        if (!seen.has(p)) {
          seen.add(p);
          queue.push(p);
        }
      }
    }
  }
  return new Set([...tips].filter(([, tip]) => found.has(tip)).map(([name]) => name));
}
