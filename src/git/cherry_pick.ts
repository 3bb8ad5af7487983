// The tree of a cherry-pick, as GitLab 10.8's Repository#cherry_pick computes it (Rugged's
// cherrypick_commit, mainline 1 for a merge commit): the three-way merge of the commit into
// the target head against the commit's own parent, so only the commit's change is applied.
// git 2.39's `merge-tree --write-tree` cannot be given a merge base, so the base is made the
// history's: two small stand-in commits, one holding the target head's tree and one the
// commit's, both children of a stand-in holding the parent's tree; merging them is exactly
// the cherry-pick (renames included). The stand-ins are never referenced (git gc drops them).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mergeTree } from './merge.js';
import { RepoReader } from './reader.js';
import { ObjectBatch, type Signature } from './writer.js';

const run = promisify(execFile);
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const STAND_IN: Signature = { name: 'Wharf', email: 'wharf@localhost', timestamp: 0 };

/**
 * The tree of `commit` cherry-picked onto `onto` (commit ids), or null when it does not apply
 * cleanly or changes nothing there (GitLab's CreateTreeError: "may already have been
 * cherry-picked"). The merged objects are written to the repository.
 */
export async function cherryPickTree(gitdir: string, commit: string, onto: string): Promise<string | null> {
  const reader = new RepoReader(gitdir);
  const picked = await reader.commit(commit);
  const target = await reader.commit(onto);
  const parent = picked.parents[0];
  const baseTree = parent ? (await reader.commit(parent)).tree : EMPTY_TREE;

  const batch = new ObjectBatch(gitdir);
  const standIn = (tree: string, parents: string[], message: string) => batch.commit({ tree, parents, author: STAND_IN, committer: STAND_IN, message });
  const base = standIn(baseTree, [], 'base\n');
  const ours = standIn(target.tree, [base], 'ours\n');
  const theirs = standIn(picked.tree, [base], 'theirs\n');
  await batch.flush();

  const merged = await mergeTree(gitdir, ours, theirs, false);
  if (!merged.clean || !merged.tree || merged.tree === target.tree) return null;
  return merged.tree;
}

/** A commit's message byte for byte, as git stored it (the reader's may gain a final newline). */
export async function rawMessage(gitdir: string, commit: string): Promise<string> {
  const { stdout } = await run('git', ['--git-dir', gitdir, 'cat-file', 'commit', commit], { maxBuffer: 64 << 20 });
  const blank = stdout.indexOf('\n\n');
  return blank < 0 ? '' : stdout.slice(blank + 2);
}
