// Creating and deleting branches (GitLab 10.8's CreateBranchService, DeleteBranchService and
// DeleteMergedBranchesService). Refs move by compare-and-swap under the repository lock.
import type { Deps } from '../../deps.js';
import { Rejected, RefMoved } from '../../store/domain_errors.js';
import { BranchRules, canPushToBranch, PUSH_PROTECTED } from '../../policy/branches.js';
import { settingsOf } from '../settings/application_settings.js';
import { isValidBranchName } from '../../git/ref_names.js';
import { deleteRef, listBranchHeads, RefMovedError } from '../../git/refs.js';
import { whileRepositoryExists, withProjectRepository } from './guard.js';
import { mergedInto } from '../../git/history.js';
import { RepoReader } from '../../git/reader.js';
import { ZERO_OID } from '../push/pushed_ref.js';
import { checkApiRefChange } from '../push/api_ref_check.js';
import { branchMoved, commitFiles, conflictingBranch, moveBranch, type ProjectContext } from './file_writes.js';
import { afterRefsMoved } from '../push/refs_moved.js';

const BRANCH_EXISTS = 'Branch already exists';
const DEFAULT_BRANCH = 'The default branch of a project cannot be deleted.';

/** Creates `name` at `ref` (a branch, tag or commit id); returns the new head. */
export async function createBranch(deps: Deps, loaded: ProjectContext, name: string, ref: string): Promise<string> {
  return whileRepositoryExists(deps, loaded.project, (gitdir) => createBranchIn(deps, loaded, gitdir, name, ref));
}

async function createBranchIn(deps: Deps, loaded: ProjectContext, gitdir: string, name: string, ref: string): Promise<string> {
  const { project } = loaded;
  if (!isValidBranchName(name)) throw new Rejected('Branch name is invalid');

  // As GitLab: a branch of an empty repository starts from a `master` holding an empty README,
  // written through the push hooks, so refused with their message where master is protected.
  if ((await listBranchHeads(gitdir)).size === 0) {
    const { default_branch_protection: protection } = await settingsOf(deps);
    if (!(await canPushToBranch(deps.db, loaded.user, project, loaded.access, 'master', true, protection))) throw new Rejected(PUSH_PROTECTED);
    await commitFiles(deps, loaded, {
      branch: 'master',
      message: 'Add README.md',
      actions: [{ action: 'create', filePath: 'README.md', content: new Uint8Array() }],
      staleMessage: () => '',
      unchangedMessage: '',
    });
  }

  const heads = await listBranchHeads(gitdir);
  if (heads.has(name)) throw new Rejected(BRANCH_EXISTS);
  const other = conflictingBranch(heads.keys(), name);
  if (other) throw new Rejected(`Branch name is invalid: a branch called '${other}' is in the way`);
  const target = await new RepoReader(gitdir).resolveCommit(ref);
  if (!target) throw new Rejected('Invalid reference name');
  await checkApiRefChange(deps, loaded, `refs/heads/${name}`, null, target);

  await moveBranch(deps, project, name, target, null, BRANCH_EXISTS);
  await afterRefsMoved(deps, { project, user: loaded.user!, updates: [{ ref: `refs/heads/${name}`, oldOid: ZERO_OID, newOid: target }], statistics: 'now' });
  return target;
}

/** Deletes `name`, which the caller found pointing at `head`. */
export async function deleteBranch(deps: Deps, loaded: ProjectContext, name: string, head: string): Promise<void> {
  const { project } = loaded;
  if (name === project.default_branch) throw new Rejected(DEFAULT_BRANCH);
  await checkApiRefChange(deps, loaded, `refs/heads/${name}`, head, null);
  await withProjectRepository(deps, project, async (gitdir) => {
    try {
      await deleteRef(gitdir, `refs/heads/${name}`, head);
    } catch (err) {
      if (err instanceof RefMovedError) throw new RefMoved(branchMoved(name));
      throw err;
    }
  });
  await afterRefsMoved(deps, { project, user: loaded.user!, updates: [{ ref: `refs/heads/${name}`, oldOid: head, newOid: ZERO_OID }], statistics: 'now' });
}

/**
 * Deletes every branch merged into the default branch, except the default branch itself
 * protected ones, and the source branches of open merge requests from this project.
 * Returns the deleted names.
 */
export async function deleteMergedBranches(deps: Deps, loaded: ProjectContext): Promise<string[]> {
  return whileRepositoryExists(deps, loaded.project, (gitdir) => deleteMergedIn(deps, loaded, gitdir));
}

async function deleteMergedIn(deps: Deps, loaded: ProjectContext, gitdir: string): Promise<string[]> {
  const { project } = loaded;
  const heads = await listBranchHeads(gitdir);
  const root = project.default_branch ? heads.get(project.default_branch) : undefined;
  if (!root) return [];
  const merged = await mergedInto(gitdir, root, heads);
  const deleted: string[] = [];
  const rules = await BranchRules.load(deps.db, project); // one query, not one per branch
  const openSources = new Set<string>(await deps.db('merge_requests').where({ source_project_id: project.id, state: 'opened' }).pluck('source_branch'));
  for (const name of [...merged].sort()) {
    if (name === project.default_branch || rules.isProtected(name) || openSources.has(name)) continue;
    const removed = await withProjectRepository(deps, project, async () => {
      try {
        await deleteRef(gitdir, `refs/heads/${name}`, heads.get(name)!);
        return true;
      } catch (err) {
        if (err instanceof RefMovedError) return false; // moved since: no longer known to be merged
        throw err;
      }
    });
    if (removed) deleted.push(name);
  }
  const updates = deleted.map((name) => ({ ref: `refs/heads/${name}`, oldOid: heads.get(name)!, newOid: ZERO_OID }));
  if (deleted.length) await afterRefsMoved(deps, { project, user: loaded.user!, updates: updates, statistics: 'now' });
  return deleted;
}
