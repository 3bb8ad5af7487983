// The diff engine shared by commit diffs, compare and merge request changes: two
// commits (or a commit and its first parent) → GitLab's change objects, bounded by GitLab
// 10.8's DiffCollection limits. The `diff` text is what libgit2 gave GitLab 10.8 after its
// header strip: from the "---" line (or "Binary files …") on, "" when git prints no patch
// (pure rename, mode change, empty file).
import { readBlob, readCommit, shallowCommits } from './odb.js';
import { diffTrees, type FileChange } from './diff_trees.js';
import { countChanges, diffLines, formatHunks, isBinary } from './diff_lines.js';
import { Lru } from './lru.js';

export type { FileChange } from './diff_trees.js';

export interface FileDiff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff: string;
  /** Not part of the API entity: the patch was over SIZE_LIMIT and emptied. */
  too_large: boolean;
  additions: number;
  deletions: number;
}

/** Gitlab::Git::Diff::SIZE_LIMIT: a patch whose lines reach 100 KB is emptied (too_large). */
export const SIZE_LIMIT = 100 * 1024;

export interface Limits {
  maxFiles: number;
  maxLines: number;
  maxBytes: number;
}

/** DiffCollection::DEFAULT_LIMITS (bytes = 5 KB per file), what commit diffs and compare_timeout use. */
export const SAFE_LIMITS: Limits = { maxFiles: 100, maxLines: 5000, maxBytes: 100 * 5 * 1024 };
/** Commit::DIFF_HARD_LIMIT_FILES/LINES: Wharf's bound for compare, where GitLab had none. */
export const HARD_LIMITS: Limits = { maxFiles: 1000, maxLines: 50000, maxBytes: 1000 * 5 * 1024 };

// git quotes paths with control, quote, backslash or non-ASCII bytes (core.quotePath).
const ESCAPES: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

function quoted(prefix: string, path: string): string {
  const bytes = Buffer.from(prefix + path, 'utf8');
  if (!bytes.some((c) => c < 32 || c === 34 || c === 92 || c >= 127)) return prefix + path;
  let out = '"';
  for (const c of bytes) {
    if (ESCAPES[c]) out += ESCAPES[c];
    else if (c < 32 || c >= 127) out += '\\' + c.toString(8).padStart(3, '0');
    else out += String.fromCharCode(c);
  }
  return `${out}"`;
}

async function blobOf(gitdir: string, oid: string | null, mode: string): Promise<Uint8Array> {
  if (!oid) return new Uint8Array(0);
  // A submodule has no blob: git diffs the line "Subproject commit <id>".
  if (mode === '160000') return Buffer.from(`Subproject commit ${oid}\n`);
  return readBlob(gitdir, oid);
}

/** The patch of one changed file, with its line counts. */
export async function patchFor(gitdir: string, c: FileChange): Promise<FileDiff> {
  const base: FileDiff = {
    old_path: c.oldPath,
    new_path: c.newPath,
    a_mode: c.oldMode,
    b_mode: c.newMode,
    new_file: c.status === 'added',
    renamed_file: c.status === 'renamed',
    deleted_file: c.status === 'deleted',
    diff: '',
    too_large: false,
    additions: 0,
    deletions: 0,
  };
  if (c.oldOid === c.newOid) return base; // rename or mode change only
  const [a, b] = await Promise.all([blobOf(gitdir, c.oldOid, c.oldMode), blobOf(gitdir, c.newOid, c.newMode)]);
  const from = c.oldOid ? quoted('a/', c.oldPath) : '/dev/null';
  const to = c.newOid ? quoted('b/', c.newPath) : '/dev/null';
  if (isBinary(a) || isBinary(b)) {
    base.diff = `Binary files ${from} and ${to} differ\n`;
    return base;
  }
  const lines = diffLines(Buffer.from(a).toString('latin1'), Buffer.from(b).toString('latin1'));
  base.additions = lines.additions;
  base.deletions = lines.deletions;
  if (!lines.changes.length) return base;
  const hunks = formatHunks(lines);
  if (hunks.contentBytes >= SIZE_LIMIT) {
    base.too_large = true;
    return base;
  }
  // git ends a header path containing a space with a tab, so the name's end is unambiguous.
  const tabA = c.oldOid && c.oldPath.includes(' ') ? '\t' : '';
  const tabB = c.newOid && c.newPath.includes(' ') ? '\t' : '';
  const header = Buffer.from(`--- ${from}${tabA}\n+++ ${to}${tabB}\n`, 'utf8').toString('latin1');
  base.diff = Buffer.from(header + hunks.text, 'latin1').toString('utf8');
  return base;
}

// What line counts need of a blob, by id (immutable): whether git calls it binary, and its
// line count. An added or deleted file then costs no read at all the second time (a shallow
// boundary or a root commit adds the whole tree; the same blobs recur commit after commit).
interface BlobFacts {
  binary: boolean;
  lines: number;
}
const blobFacts = new Lru<string, BlobFacts>(300_000);
// Counts between two blob ids, for changes seen again (another head, the commits API).
const pairCounts = new Lru<string, { additions: number; deletions: number }>(100_000);

function countNewlines(buf: Uint8Array): number {
  let n = 0;
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) n++;
  return buf.length && buf[buf.length - 1] !== 10 ? n + 1 : n;
}

function factsOf(oid: string, buf: Uint8Array): BlobFacts {
  const facts = { binary: isBinary(buf), lines: countNewlines(buf) };
  blobFacts.set(oid, facts);
  return facts;
}

async function facts(gitdir: string, oid: string, mode: string): Promise<BlobFacts> {
  if (mode === '160000') return { binary: false, lines: 1 }; // "Subproject commit <id>"
  const known = blobFacts.get(oid);
  if (known) return known;
  return factsOf(oid, await blobOf(gitdir, oid, mode));
}

/** Line additions/deletions of one change without building the patch text (binary: 0/0). */
export async function statFor(gitdir: string, c: FileChange): Promise<{ additions: number; deletions: number }> {
  if (c.oldOid === c.newOid) return { additions: 0, deletions: 0 };
  if (!c.oldOid || !c.newOid) {
    // Whole-file add or delete: count lines without diffing.
    const f = await facts(gitdir, (c.oldOid ?? c.newOid)!, c.oldOid ? c.oldMode : c.newMode);
    if (f.binary) return { additions: 0, deletions: 0 };
    return c.oldOid ? { additions: 0, deletions: f.lines } : { additions: f.lines, deletions: 0 };
  }
  const key = `${c.oldMode === '160000' ? 'S' : ''}${c.oldOid}:${c.newMode === '160000' ? 'S' : ''}${c.newOid}`;
  const known = pairCounts.get(key);
  if (known) return known;
  // Either side known binary: no read needed.
  const fa = c.oldMode === '160000' ? undefined : blobFacts.get(c.oldOid);
  const fb = c.newMode === '160000' ? undefined : blobFacts.get(c.newOid);
  if (fa?.binary || fb?.binary) return { additions: 0, deletions: 0 };
  const [a, b] = await Promise.all([blobOf(gitdir, c.oldOid, c.oldMode), blobOf(gitdir, c.newOid, c.newMode)]);
  const binA = c.oldMode === '160000' ? false : (fa ?? factsOf(c.oldOid, a)).binary;
  const binB = c.newMode === '160000' ? false : (fb ?? factsOf(c.newOid, b)).binary;
  let counts: { additions: number; deletions: number };
  if (binA || binB) counts = { additions: 0, deletions: 0 };
  else if (!a.length || !b.length) counts = { additions: countNewlines(b), deletions: countNewlines(a) };
  else counts = countChanges(Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('latin1'), Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1'));
  pairCounts.set(key, counts);
  return counts;
}

/** Gitlab::Git::Util.count_lines. */
function countLines(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

export interface DiffResult {
  diffs: FileDiff[];
  /** The bound `limits` was hit: files after it are missing. */
  overflow: boolean;
  /** GitLab's DEFAULT_LIMITS would have been hit (compare_timeout). */
  overSafeLimits: boolean;
}

/**
 * Patches for the changes in order until a limit is hit, as DiffCollection#each_rugged_patch
 * does: stop before the file that would exceed max_files, or whose lines/bytes would reach
 * max_lines/max_bytes (that file is dropped too).
 */
export async function collect(gitdir: string, changes: FileChange[], limits: Limits): Promise<DiffResult> {
  const diffs: FileDiff[] = [];
  let lines = 0;
  let bytes = 0;
  let overSafeLimits = false;
  const over = (l: Limits, i: number, ln: number, by: number) => i >= l.maxFiles || ln >= l.maxLines || by >= l.maxBytes;
  for (let i = 0; i < changes.length; i++) {
    if (i >= limits.maxFiles) return { diffs, overflow: true, overSafeLimits: true };
    if (i >= SAFE_LIMITS.maxFiles) overSafeLimits = true;
    const d = await patchFor(gitdir, changes[i]);
    lines += countLines(d.diff);
    bytes += Buffer.byteLength(d.diff);
    if (over({ ...SAFE_LIMITS, maxFiles: Infinity }, i, lines, bytes)) overSafeLimits = true;
    if (over({ ...limits, maxFiles: Infinity }, i, lines, bytes)) return { diffs, overflow: true, overSafeLimits: true };
    diffs.push(d);
  }
  return { diffs, overflow: false, overSafeLimits };
}

async function treeOf(gitdir: string, commit: string | null): Promise<string | null> {
  if (!commit) return null;
  return (await readCommit(gitdir, commit)).tree;
}

/** The changed files from commit `from` (null = nothing) to commit `to`. */
export async function changesBetween(gitdir: string, from: string | null, to: string): Promise<FileChange[]> {
  const [a, b] = await Promise.all([treeOf(gitdir, from), treeOf(gitdir, to)]);
  return diffTrees(gitdir, a, b);
}

/** A commit against its first parent (a root commit against the empty tree). */
export async function commitChanges(gitdir: string, commit: string): Promise<FileChange[]> {
  const c = await readCommit(gitdir, commit);
  // A shallow clone's boundary commit has no parents for git (and a parent beyond it is
  // absent): diff against nothing, as git does.
  const parents = shallowCommits(gitdir).has(commit) ? [] : c.parent;
  const parentTree = parents.length ? await treeOf(gitdir, parents[0]).catch(() => null) : null;
  return diffTrees(gitdir, parentTree, c.tree);
}
