// Repository contributors as GitLab 10.8 counted them (the newest 2000 non-merge commits of the
// default branch, grouped by author email, the name of the newest commit per email), with
// real line additions/deletions where GitLab answered 0. Walking and diffing is costly, so the
// result is cached by (repository, head commit): a commit id never changes meaning, so an
// entry is never stale, only unused. The cache is in memory, bounded, per process: another
// process recomputes the same answer.
import { RepoReader, type CommitInfo } from './reader.js';
import { commitChanges, statFor } from './diff.js';

export interface Contributor {
  name: string;
  email: string;
  commits: number;
  additions: number;
  deletions: number;
}

/** Repository#contributors walks `git log --no-merges --max-count=2000`. */
export const MAX_COMMITS = 2000;
const CACHE_ENTRIES = 256;

const cache = new Map<string, Promise<Contributor[]>>();

/** The newest `max` non-merge commits reachable from `head`, in git log's date order. */
async function history(reader: RepoReader, head: string, max: number): Promise<CommitInfo[]> {
  const seen = new Set<string>([head]);
  const queue: CommitInfo[] = [await reader.commit(head)];
  const out: CommitInfo[] = [];
  while (queue.length && out.length < max) {
    const c = queue.shift()!;
    if (c.parents.length <= 1) out.push(c);
    for (const p of c.parents) {
      if (seen.has(p)) continue;
      seen.add(p);
      const pc = await reader.commit(p).catch(() => null);
      if (!pc) continue; // beyond a shallow clone's boundary
      let i = queue.length;
      while (i > 0 && queue[i - 1].committer.timestamp < pc.committer.timestamp) i--;
      queue.splice(i, 0, pc);
    }
  }
  return out;
}

async function compute(reader: RepoReader, head: string): Promise<Contributor[]> {
  const byEmail = new Map<string, Contributor>();
  for (const c of await history(reader, head, MAX_COMMITS)) {
    let who = byEmail.get(c.author.email);
    if (!who) {
      who = { name: c.author.name, email: c.author.email, commits: 0, additions: 0, deletions: 0 };
      byEmail.set(c.author.email, who);
    }
    if (!who.name) who.name = c.author.name;
    who.commits++;
    for (const change of await commitChanges(reader.gitdir, c.oid)) {
      const s = await statFor(reader.gitdir, change);
      who.additions += s.additions;
      who.deletions += s.deletions;
    }
  }
  return [...byEmail.values()];
}

/** Contributors over the history of `head`, unsorted (first-seen order), cached. */
export function contributorsAt(reader: RepoReader, head: string): Promise<Contributor[]> {
  const key = `${reader.gitdir}\0${head}`;
  let entry = cache.get(key);
  if (entry) {
    cache.delete(key); // refresh: least recently used goes first
  } else {
    entry = compute(reader, head);
    entry.catch(() => cache.delete(key)); // a failure is not remembered
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, entry);
  return entry;
}

export type ContributorOrder = 'name' | 'email' | 'commits';

/** Commit.order_by: strings compared case-insensitively, `desc` swaps the operands. */
export function sortContributors(list: Contributor[], orderBy: ContributorOrder, sort: 'asc' | 'desc'): Contributor[] {
  const sign = sort === 'desc' ? -1 : 1;
  const cmp = (a: Contributor, b: Contributor) => {
    if (orderBy === 'commits') return a.commits - b.commits;
    const x = a[orderBy].toLowerCase();
    const y = b[orderBy].toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return [...list].sort((a, b) => sign * cmp(a, b));
}
