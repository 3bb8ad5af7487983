// The diff engine shared by commit diffs, compare and (later) merge request changes: two
// commits (or a commit and its first parent) → GitLab's change objects, bounded by GitLab
// 10.8's DiffCollection limits. The `diff` text is what libgit2 gave GitLab 10.8 after its
// header strip: from the "---" line (or "Binary files …") on, "" when git prints no patch
// (pure rename, mode change, empty file).
import fs from 'node:fs';
import git from 'isomorphic-git';
import { cacheFor } from './cache.js';
import { diffTrees, type FileChange } from './diff_trees.js';
import { diffLines, formatHunks, isBinary } from './diff_lines.js';

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
  return (await git.readBlob({ fs, gitdir, oid, cache: cacheFor(gitdir) })).blob;
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

/** Line additions/deletions of one change without building the patch text (binary: 0/0). */
export async function statFor(gitdir: string, c: FileChange): Promise<{ additions: number; deletions: number }> {
  if (c.oldOid === c.newOid) return { additions: 0, deletions: 0 };
  const [a, b] = await Promise.all([blobOf(gitdir, c.oldOid, c.oldMode), blobOf(gitdir, c.newOid, c.newMode)]);
  if (isBinary(a) || isBinary(b)) return { additions: 0, deletions: 0 };
  if (!a.length || !b.length) {
    // Whole-file add or delete: count lines without diffing.
    const count = (buf: Uint8Array) => {
      let n = 0;
      for (const ch of buf) if (ch === 10) n++;
      return buf.length && buf[buf.length - 1] !== 10 ? n + 1 : n;
    };
    return { additions: count(b), deletions: count(a) };
  }
  const d = diffLines(Buffer.from(a).toString('latin1'), Buffer.from(b).toString('latin1'));
  return { additions: d.additions, deletions: d.deletions };
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
  return (await git.readCommit({ fs, gitdir, oid: commit, cache: cacheFor(gitdir) })).commit.tree;
}

/** The changed files from commit `from` (null = nothing) to commit `to`. */
export async function changesBetween(gitdir: string, from: string | null, to: string): Promise<FileChange[]> {
  const [a, b] = await Promise.all([treeOf(gitdir, from), treeOf(gitdir, to)]);
  return diffTrees(gitdir, a, b);
}

/** A commit against its first parent (a root commit against the empty tree). */
export async function commitChanges(gitdir: string, commit: string): Promise<FileChange[]> {
  const { commit: c } = await git.readCommit({ fs, gitdir, oid: commit, cache: cacheFor(gitdir) });
  // A parent beyond a shallow clone's boundary is absent: diff against nothing, as git does.
  const parentTree = c.parent.length ? await treeOf(gitdir, c.parent[0]).catch(() => null) : null;
  return diffTrees(gitdir, parentTree, c.tree);
}
