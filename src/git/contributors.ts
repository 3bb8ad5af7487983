// Repository contributors as GitLab 10.8 counted them (the newest 2000 non-merge commits of the
// default branch, grouped by author email, the name of the newest commit per email), with
// real line additions/deletions where GitLab answered 0. Walking and diffing is costly, so the
// result is cached by (repository, head commit): a commit id never changes meaning, so an
// entry is never stale, only unused. That cache is in memory, bounded, per process; below it,
// each commit's counts are kept by commit id in memory and, when the caller passes a
// StatsStore, in the commit_stats table, so another process or a new head only counts the
// commits nobody counted yet.
import { type RepoReader, type CommitInfo } from './reader.js';
import { commitChanges, statFor } from './diff.js';
import { shallowCommits } from './odb.js';
import { Lru } from './lru.js';
import { statsKey, type LineCounts, type StatsKey, type StatsStore } from './stats_store.js';

export interface Contributor {
  name: string;
  email: string;
  commits: number;
  additions: number;
  deletions: number;
}

/** Repository#contributors walks `git log --no-merges --max-count=2000`. */
const MAX_COMMITS = 2000;
const CACHE_ENTRIES = 256;

const cache = new Map<string, Promise<Contributor[]>>();

/** The newest `max` non-merge commits reachable from `head`, in git log's date order. */
async function history(reader: RepoReader, head: string, max: number): Promise<CommitInfo[]> {
  const seen = new Set<string>([head]);
  const queue: CommitInfo[] = [await reader.commit(head)];
  const out: CommitInfo[] = [];
  const shallow = shallowCommits(reader.gitdir); // boundary commits are roots for git log
  while (queue.length && out.length < max) {
    const c = queue.shift()!;
    const parents = shallow.has(c.oid) ? [] : c.parents;
    if (parents.length <= 1) out.push(c);
    for (const p of parents) {
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

// Line counts of one commit against the commit it is diffed with, by both ids: immutable, so
// a new head only costs the commits it adds. Shared by every repository (object ids).
const perCommit = new Lru<string, LineCounts>(100_000);

// Object reads are synchronous (see odb.ts): give other requests a turn every so often.
const YIELD_EVERY_MS = 20;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function countCommit(gitdir: string, oid: string, pause: () => Promise<void> | null): Promise<LineCounts> {
  let additions = 0;
  let deletions = 0;
  for (const change of await commitChanges(gitdir, oid)) {
    const s = await statFor(gitdir, change);
    additions += s.additions;
    deletions += s.deletions;
    const p = pause();
    if (p) await p;
  }
  return { additions, deletions };
}

/** What commitChanges diffs `c` with: its first parent, or nothing (root, shallow boundary, absent parent). */
async function baseOf(reader: RepoReader, c: CommitInfo, shallow: Set<string>): Promise<string> {
  if (shallow.has(c.oid) || !c.parents.length) return '';
  return (await reader.commit(c.parents[0]).then(
    () => true,
    () => false,
  ))
    ? c.parents[0]
    : '';
}

async function compute(reader: RepoReader, head: string, persisted?: StatsStore): Promise<Contributor[]> {
  const commits = await history(reader, head, MAX_COMMITS);
  const shallow = shallowCommits(reader.gitdir);
  const keys: StatsKey[] = [];
  for (const c of commits) keys.push({ commit: c.oid, base: await baseOf(reader, c, shallow) });
  const counts = new Map<string, LineCounts>();
  const missing: StatsKey[] = [];
  for (const k of keys) {
    const known = perCommit.get(statsKey(k));
    if (known) counts.set(statsKey(k), known);
    else missing.push(k);
  }
  if (missing.length && persisted) {
    const stored = await persisted.load(missing).catch(() => new Map<string, LineCounts>());
    for (const [k, v] of stored) {
      counts.set(k, v);
      perCommit.set(k, v);
    }
  }
  let since = Date.now();
  const pause = () => {
    if (Date.now() - since <= YIELD_EVERY_MS) return null;
    since = Date.now();
    return turn();
  };
  const fresh: (StatsKey & LineCounts)[] = [];
  for (const k of keys) {
    const key = statsKey(k);
    if (counts.has(key)) continue;
    const n = await countCommit(reader.gitdir, k.commit, pause);
    counts.set(key, n);
    perCommit.set(key, n);
    fresh.push({ ...k, ...n });
  }
  if (fresh.length && persisted) await persisted.save(fresh).catch(() => undefined);
  const byEmail = new Map<string, Contributor>();
  commits.forEach((c, i) => {
    let who = byEmail.get(c.author.email);
    if (!who) {
      who = { name: c.author.name, email: c.author.email, commits: 0, additions: 0, deletions: 0 };
      byEmail.set(c.author.email, who);
    }
    if (!who.name) who.name = c.author.name;
    who.commits++;
    const n = counts.get(statsKey(keys[i]))!;
    who.additions += n.additions;
    who.deletions += n.deletions;
  });
  return [...byEmail.values()];
}

/** Contributors over the history of `head`, unsorted (first-seen order), cached. */
export function contributorsAt(reader: RepoReader, head: string, persisted?: StatsStore): Promise<Contributor[]> {
  const key = `${reader.gitdir}\0${head}`;
  let entry = cache.get(key);
  if (entry) {
    cache.delete(key); // refresh: least recently used goes first
  } else {
    entry = compute(reader, head, persisted);
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
