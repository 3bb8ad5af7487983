// Merging two commits of a bare repository without a work tree, for merge requests: the
// test merge behind `merge_status`, the merge commit of an accepted merge request and the
// fast-forward check of the `rebase_merge` and `ff` merge methods. The three-way merge
// itself is native git's (`git merge-tree --write-tree`, git >= 2.38: the same merge `git
// merge` does, renames included); the merge commit is encoded by src/git/writer.ts so its
// message is stored byte-exact. A test merge writes nothing into the repository (its
// objects go to a quarantine directory that is dropped), so checking merge status on every
// push leaves no garbage. Nothing here moves a ref: callers do that by compare-and-swap.
// Results are keyed by commit ids, which never change meaning, so they are cached per
// process.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Lru } from './lru.js';
import { ObjectBatch, type Signature } from './writer.js';

const OID = /^[0-9a-f]{40}$/;

export interface MergeResult {
  /** True when the merge has no conflict. */
  clean: boolean;
  /** The merged tree (written to the object store) when clean. */
  tree: string | null;
  /** Paths in conflict when not clean. */
  conflicts: string[];
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runGit(gitdir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--git-dir', gitdir, ...args],
      { env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', ...env }, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err && typeof (err as NodeJS.ErrnoException).code !== 'number') return reject(err);
        const code = err ? Number((err as NodeJS.ErrnoException).code) : 0;
        resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
}

// Pair of commit ids -> result; both sides are immutable, so the answer is too.
const merges = new Lru<string, MergeResult>(10_000);

/**
 * Runs `git merge-tree --write-tree`. `quarantine`: the objects it writes (merged blobs,
 * trees) go to a temporary object directory, removed afterwards, so that a test merge
 * leaves nothing behind in the repository (git's own quarantine mechanism, as receive-pack
 * uses it: the repository's objects, and its alternates, stay readable).
 */
export async function mergeTree(gitdir: string, ours: string, theirs: string, quarantine: boolean): Promise<MergeResult> {
  let tmp: string | null = null;
  const env: Record<string, string> = {};
  if (quarantine) {
    tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'wharf-merge-'));
    env.GIT_OBJECT_DIRECTORY = tmp;
    env.GIT_ALTERNATE_OBJECT_DIRECTORIES = path.join(path.resolve(gitdir), 'objects');
  }
  try {
    const run = await runGit(gitdir, ['merge-tree', '--write-tree', '--allow-unrelated-histories', '-z', '--name-only', ours, theirs], env);
    if (run.code !== 0 && run.code !== 1) throw new Error(`git merge-tree failed (${run.code}): ${run.stderr.trim()}`);
    // -z output: the tree id, then (when conflicted) each conflicted path, then an empty
    // field and the informational messages.
    const fields = run.stdout.split('\0');
    const tree = fields[0].trim();
    if (!OID.test(tree)) throw new Error(`git merge-tree gave no tree: ${run.stdout.slice(0, 200)}`);
    if (run.code === 0) return { clean: true, tree, conflicts: [] };
    const conflicts: string[] = [];
    for (const f of fields.slice(1)) {
      if (f === '') break;
      if (!conflicts.includes(f)) conflicts.push(f);
    }
    return { clean: false, tree: null, conflicts };
  } finally {
    if (tmp) await fs.promises.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Three-way merge of `theirs` into `ours` (commit ids), as `git merge` would do it, without
 * writing anything to the repository (the tree id is given, its objects are not kept).
 * Throws when git cannot merge at all (a missing commit); unrelated histories are merged
 * against an empty base, as GitLab's merge did.
 */
export async function testMerge(gitdir: string, ours: string, theirs: string): Promise<MergeResult> {
  if (!OID.test(ours) || !OID.test(theirs)) throw new Error('testMerge needs commit ids');
  const key = `${ours}:${theirs}`;
  const cached = merges.get(key);
  if (cached) return cached;
  const result = await mergeTree(gitdir, ours, theirs, true);
  merges.set(key, result);
  return result;
}

// Ancestry of two commit ids never changes: the answer is cached by the pair (reading a
// merge request asks it on every view).
const ancestry = new Lru<string, boolean>(10_000);

/** Whether `ancestor` is reachable from `descendant` (equal counts as reachable). */
export async function isAncestor(gitdir: string, ancestor: string, descendant: string): Promise<boolean> {
  const key = `${ancestor}:${descendant}`;
  const known = ancestry.get(key);
  if (known !== undefined) return known;
  const run = await runGit(gitdir, ['merge-base', '--is-ancestor', ancestor, descendant]);
  if (run.code !== 0 && run.code !== 1) throw new Error(`git merge-base failed (${run.code}): ${run.stderr.trim()}`);
  ancestry.set(key, run.code === 0);
  return run.code === 0;
}

/**
 * GitLab's `ff_merge_possible?`: the target head is an ancestor of the source head, so the
 * target can move to the source without a merge commit.
 */
export function fastForwardPossible(gitdir: string, targetHead: string, sourceHead: string): Promise<boolean> {
  return isAncestor(gitdir, targetHead, sourceHead);
}

export interface MergeCommitInput {
  /** The target head: first parent. */
  ours: string;
  /** The source head: second parent. */
  theirs: string;
  message: string;
  author: Signature;
  committer: Signature;
}

/**
 * Writes the merge commit of `theirs` into `ours` (parents in that order). Returns null on
 * a conflict, and writes no commit then.
 */
export async function writeMergeCommit(gitdir: string, input: MergeCommitInput): Promise<string | null> {
  const known = merges.get(`${input.ours}:${input.theirs}`);
  if (known && !known.clean) return null;
  // This time the merged objects are written to the repository, under the new commit.
  const merged = await mergeTree(gitdir, input.ours, input.theirs, false);
  merges.set(`${input.ours}:${input.theirs}`, merged);
  if (!merged.clean || !merged.tree) return null;
  const batch = new ObjectBatch(gitdir);
  const oid = batch.commit({
    tree: merged.tree,
    parents: [input.ours, input.theirs],
    author: input.author,
    committer: input.committer,
    message: input.message,
  });
  await batch.flush();
  return oid;
}

/**
 * Full messages of the commits reachable from `head` but not from `base` (newest first),
 * at most `limit` of them: what a merge request's commits say.
 */
export async function commitMessages(gitdir: string, base: string | null, head: string, limit = 1000): Promise<string[]> {
  const range = base ? [head, `^${base}`] : [head];
  const run = await runGit(gitdir, ['log', '-z', `--max-count=${limit}`, '--format=%B', ...range, '--']);
  if (run.code !== 0) throw new Error(`git log failed (${run.code}): ${run.stderr.trim()}`);
  return run.stdout.split('\0').filter((m) => m !== '');
}

/** Whether the object store holds `oid` as a commit. */
export async function commitExists(gitdir: string, oid: string): Promise<boolean> {
  if (!OID.test(oid)) return false;
  const run = await runGit(gitdir, ['cat-file', '-e', `${oid}^{commit}`]);
  return run.code === 0;
}
