// Walking commit history as `git log [--after] [--before] <start>... [-- <path>]` does in its
// default mode (GitLab 10.8 shells out to exactly that): newest committer date first, and with
// a path, git's history simplification — a commit that leaves the path as one of its parents
// had it is not shown, and at a merge only the first such parent is followed.
//
// Results are cached by the starting commit ids, which are immutable, so a cached answer is
// never stale and several processes can each keep their own.
import type { CommitInfo, RepoReader } from './reader.js';
import { Lru } from './lru.js';
import { MAX_PATH_BYTES } from './paths.js';

export interface LogFilter {
  /** A path (file or directory) the commits must touch; '' or undefined for none. */
  path?: string;
  /** Unix seconds: only commits committed at or after (git stops walking past older ones). */
  since?: number;
  /** Unix seconds: only commits committed at or before. */
  until?: number;
}

/** Splits a path into names; null when it cannot name anything in a tree. */
export function pathNames(path: string): string[] | null {
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return null; // longer than any path git checks out
  const clean = path.replace(/(?<!\/)\/+$/, ''); // one start per run of slashes: linear
  if (clean === '') return [];
  const names = clean.split('/');
  return names.some((n) => n === '' || n === '.' || n === '..') ? null : names;
}

type Slot = { oid: string; type: string; mode: string } | null;

/** Whether `path` is the same (id and mode) below two trees; stops at the first equal subtree. */
async function samePath(reader: RepoReader, treeA: string, treeB: string, names: string[]): Promise<boolean> {
  let a: Slot = { oid: treeA, type: 'tree', mode: '040000' };
  let b: Slot = { oid: treeB, type: 'tree', mode: '040000' };
  for (const name of names) {
    if (a && b && a.oid === b.oid && a.mode === b.mode) return true;
    a = a && a.type === 'tree' ? ((await reader.treeEntries(a.oid))?.find((e) => e.name === name) ?? null) : null;
    b = b && b.type === 'tree' ? ((await reader.treeEntries(b.oid))?.find((e) => e.name === name) ?? null) : null;
    if (!a || !b) return a === b;
  }
  return !!a && !!b && a.oid === b.oid && a.mode === b.mode;
}

/**
 * One step of the simplified walk: whether `commit` is shown for `names`, and which parents
 * the walk continues with.
 */
async function simplify(reader: RepoReader, commit: CommitInfo, names: string[]): Promise<{ shown: boolean; parents: string[] }> {
  if (names.length === 0) return { shown: true, parents: commit.parents };
  if (commit.parents.length === 0) {
    return { shown: (await reader.entryAt(commit.tree, names.join('/'))) !== null, parents: [] };
  }
  for (const parent of commit.parents) {
    const p = await reader.commit(parent);
    if (await samePath(reader, commit.tree, p.tree, names)) return { shown: false, parents: [parent] };
  }
  return { shown: true, parents: commit.parents };
}

// Commit ids of a whole listing (newest first), by query; weighed by length.
const logCache = new Lru<string, string[]>(500_000, (ids) => 1 + ids.length);
// Last commit touching a path, by "<gitdir>\0<commit>\0<path>".
const lastCache = new Lru<string, string | null>(100_000);

function cacheKey(gitdir: string, starts: string[], names: string[], f: LogFilter): string {
  // The gitdir keeps two repositories apart in case one lacks objects the other has.
  return [gitdir, [...starts].sort().join(','), names.join('/'), f.since ?? '', f.until ?? ''].join('\0');
}

/**
 * The ids of every commit `git log` would list, newest first. A full walk (the total count
 * needs one anyway), cached by start commits and filter so later pages are free.
 */
export async function logIds(reader: RepoReader, starts: string[], filter: LogFilter = {}): Promise<string[]> {
  const names = pathNames(filter.path ?? '');
  if (names === null || starts.length === 0) return [];
  const key = cacheKey(reader.gitdir, starts, names, filter);
  const cached = logCache.get(key);
  if (cached) return cached;

  // Kept sorted by committer date, newest first; equal dates keep insertion order (as git's
  // commit_list_insert_by_date).
  const queue: CommitInfo[] = [];
  const seen = new Set<string>();
  const push = (c: CommitInfo) => {
    let i = queue.length;
    while (i > 0 && queue[i - 1].committer.timestamp < c.committer.timestamp) i--;
    queue.splice(i, 0, c);
  };
  for (const oid of starts) {
    if (seen.has(oid)) continue;
    seen.add(oid);
    push(await reader.commit(oid));
  }
  const out: string[] = [];
  while (queue.length) {
    const commit = queue.shift()!;
    const time = commit.committer.timestamp;
    // Like git's unlimited walk: a commit older than --after ends its line of history.
    if (filter.since !== undefined && time < filter.since) continue;
    const { shown, parents } = await simplify(reader, commit, names);
    if (shown && (filter.until === undefined || time <= filter.until)) out.push(commit.oid);
    for (const parent of parents) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      push(await reader.commit(parent));
    }
  }
  logCache.set(key, out);
  return out;
}

/**
 * The last commit at or before `commitOid` that changed `path` (`git rev-list -1 <commit> --
 * <path>`), or null. The simplified walk is a single line here, so it stops at the first
 * commit that differs from the parent it would follow; every commit passed on the way shares
 * the answer and is cached too.
 */
export async function lastCommitFor(reader: RepoReader, commitOid: string, path: string): Promise<string | null> {
  const names = pathNames(path);
  if (names === null) return null;
  const norm = names.join('/');
  const key = (oid: string) => `${reader.gitdir}\0${oid}\0${norm}`;
  const passed: string[] = [];
  let current: string | null = commitOid;
  let answer: string | null = null;
  while (current) {
    const cached = lastCache.get(key(current));
    if (cached !== undefined) {
      answer = cached;
      break;
    }
    passed.push(current);
    const commit = await reader.commit(current);
    const { shown, parents } = await simplify(reader, commit, names);
    if (shown) {
      answer = commit.oid;
      break;
    }
    current = parents[0] ?? null;
  }
  for (const oid of passed) lastCache.set(key(oid), answer);
  return answer;
}
