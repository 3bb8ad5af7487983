// Committing file changes through the API (files create/update/delete and the multi-action
// commits endpoint), following GitLab 10.8's Commits::CreateService and Files::*Service:
// the same checks in the same order and the same messages. The new commit is built from
// objects outside any lock; then, under the repository lock, the branch moves by
// compare-and-swap from the head the commit was built on. A failure at any step leaves
// the refs as they were (objects already written stay unreferenced until git gc). A project
// renamed or deleted meanwhile stops the write with 409 or 404 (repository/guard.ts): the
// objects are never written into, nor the ref moved in, a folder the project no longer owns.
import type { Deps } from '../../deps.js';
import { afterRefsMoved } from '../push/refs_moved.js';
import { ZERO_OID } from '../push/pushed_ref.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { Rejected, RefMoved, StaleFile } from '../../store/domain_errors.js';
import type { ProjectAccess } from '../../policy/projects.js';
import { fullPathOf } from '../../finders/projects.js';
import { canPushToBranch } from '../../policy/branches.js';
import { settingsOf } from '../settings/application_settings.js';
import { checkFilePath, PathError } from '../../git/paths.js';
import { isValidBranchName } from '../../git/ref_names.js';
import { IndexError, TreeIndex } from '../../git/tree_index.js';
import { blankIdent, cleanIdent, ObjectBatch, type Signature } from '../../git/writer.js';
import { listBranchHeads, RefMovedError, updateRef } from '../../git/refs.js';
import { whileRepositoryExists, withProjectRepository } from './guard.js';
import { lastCommitFor } from '../../git/log.js';
import { RepoReader, type CommitInfo } from '../../git/reader.js';

/**
 * The project a write acts on, with the acting user's access to it: what the api layer has
 * loaded and authorized (its LoadedProject is one), or what a service builds for a user it
 * acts for (the author removing a merged source branch).
 */
export interface ProjectContext {
  project: ProjectWithNamespace;
  access: ProjectAccess;
  user: UserRow | null;
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** One change; contents are already decoded bytes (see `fileContent`). */
export type FileAction =
  | { action: 'create'; filePath: string; content: Uint8Array }
  | { action: 'create_dir'; filePath: string }
  | { action: 'update'; filePath: string; content: Uint8Array; lastCommitId?: string }
  | { action: 'move'; filePath: string; previousPath: string; content: Uint8Array | null; lastCommitId?: string }
  | { action: 'delete'; filePath: string; lastCommitId?: string }
  | { action: 'chmod'; filePath: string; executable: boolean }
  /** An action the API could not make sense of; refused with `message` when its turn comes. */
  | { action: 'invalid'; message: string };

export interface CommitRequest {
  branch: string;
  startBranch?: string;
  message: string;
  authorName?: string;
  authorEmail?: string;
  actions: FileAction[];
  /** The 400 message when an action's `last_commit_id` is stale. */
  staleMessage(action: FileAction): string;
  /** The 400 message when the commit would not change the tree. */
  unchangedMessage: string;
}

export interface CommitResult {
  /** The new commit as written (message byte-exact, unlike a re-read through isomorphic-git). */
  commit: CommitInfo;
  branch: string;
}

/**
 * The bytes to store for API content: base64-decoded when asked, and text with CRLF line
 * ends stored with LF, as GitLab's index did (autocrlf=input; binary content untouched).
 */
export function fileContent(content: string, encoding: string | undefined): Uint8Array {
  const bytes = encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
  if (bytes.subarray(0, 8000).includes(0)) return bytes; // binary, as git guesses it
  return bytes.includes(13) ? Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1') : bytes;
}

const ON_BRANCH = 'You can only create or edit files when you are on a branch';
const NOT_ALLOWED = 'You are not allowed to push into this branch';

export function branchMoved(branch: string): string {
  return `Could not update branch ${branch}. Please refresh and try again.`;
}

function cannotCreate(branch: string, reason: string): string {
  return `Something went wrong when we tried to create '${branch}' for you: ${reason}`;
}

/** Another branch that would share a path on disk with `name` (`a` and `a/b` cannot coexist). */
export function conflictingBranch(names: Iterable<string>, name: string): string | null {
  for (const n of names) if (n.startsWith(`${name}/`) || name.startsWith(`${n}/`)) return n;
  return null;
}

function signature(name: string, email: string, timestamp: number): Signature {
  return { name, email, timestamp };
}

export async function commitFiles(deps: Deps, loaded: ProjectContext, req: CommitRequest): Promise<CommitResult> {
  return whileRepositoryExists(deps, loaded.project, (gitdir) => commitIn(deps, loaded, gitdir, req));
}

async function commitIn(deps: Deps, loaded: ProjectContext, gitdir: string, req: CommitRequest): Promise<CommitResult> {
  const { project, access } = loaded;
  const user = loaded.user as UserRow; // push_code was authorized: never anonymous
  const heads = await listBranchHeads(gitdir);
  const empty = heads.size === 0; // under default branch protection, every branch of it is protected
  const protection = empty ? (await settingsOf(deps)).default_branch_protection : undefined;
  if (!(await canPushToBranch(deps.db, user, project, access, req.branch, empty, protection))) throw new Rejected(NOT_ALLOWED);

  const start = req.startBranch ?? req.branch;
  const creating = empty || start !== req.branch;

  if (!empty && !heads.has(start)) throw new Rejected(ON_BRANCH);
  if (!empty && creating && heads.has(req.branch)) {
    throw new Rejected(`A branch called '${req.branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (creating) {
    if (!isValidBranchName(req.branch)) throw new Rejected(cannotCreate(req.branch, 'Branch name is invalid'));
    const other = conflictingBranch(heads.keys(), req.branch);
    if (other) throw new Rejected(cannotCreate(req.branch, `a branch called '${other}' is in the way`));
  }

  // In an empty repository the start branch is ignored: the commit has no parent.
  const base = empty ? null : heads.get(start)!;
  const expected = creating ? null : base;
  const reader = new RepoReader(gitdir);
  const baseTree = base ? (await reader.commit(base)).tree : null;

  if (base) await checkLastCommits(reader, base, req);

  const index = new TreeIndex(gitdir, baseTree);
  for (const action of req.actions) await apply(index, action);
  const batch = new ObjectBatch(gitdir);
  const tree = await index.write(batch);
  if (tree === (baseTree ?? EMPTY_TREE)) throw new Rejected(req.unchangedMessage);

  const time = Math.floor(Date.now() / 1000);
  const committer = signature(user.name, user.email, time);
  // As GitLab: the given author only when both name and email are given.
  const author = req.authorName !== undefined && req.authorEmail !== undefined ? signature(req.authorName, req.authorEmail, time) : committer;
  if (blankIdent(author.name) || blankIdent(author.email)) {
    throw new Rejected('Failed to parse signature - Signature cannot have an empty name or email');
  }
  const message = req.message.replace(/\r/g, '');
  const parents = base ? [base] : [];
  const oid = batch.commit({ tree, parents, author, committer, message });
  await batch.flush();

  await moveBranch(deps, project, req.branch, oid, expected);
  await afterRefsMoved(deps, { project, user, updates: [{ ref: `refs/heads/${req.branch}`, oldOid: expected ?? ZERO_OID, newOid: oid }], statistics: 'now' });
  const person = (s: Signature) => ({ name: cleanIdent(s.name), email: cleanIdent(s.email), timestamp: s.timestamp, timezoneOffset: 0 });
  return { commit: { oid, parents, tree, message, author: person(author), committer: person(committer) }, branch: req.branch };
}

/**
 * Moves (or creates) `branch` to `commit` if it still points at `expected`, under the
 * repository lock, in the folder the project row names then (else 404 or 409). The first
 * branch of an empty repository becomes HEAD at once, under the lock (push/refs_moved.ts then
 * records it as the default branch).
 */
export async function moveBranch(
  deps: Deps,
  project: ProjectWithNamespace,
  branch: string,
  commit: string,
  expected: string | null,
  movedMessage = branchMoved(branch),
): Promise<void> {
  const fullPath = fullPathOf(project);
  await withProjectRepository(deps, project, async (gitdir) => {
    const first = (await listBranchHeads(gitdir)).size === 0;
    try {
      await updateRef(gitdir, `refs/heads/${branch}`, commit, expected);
    } catch (err) {
      if (err instanceof RefMovedError) throw new RefMoved(movedMessage);
      throw err;
    }
    if (first) await deps.repos.setHead(fullPath, branch);
  });
}

/** GitLab's `file_has_changed?`: the last commit of the path on the start branch must match. */
async function checkLastCommits(reader: RepoReader, base: string, req: CommitRequest): Promise<void> {
  for (const action of req.actions) {
    if (!('lastCommitId' in action) || action.lastCommitId === undefined) continue;
    const path = action.action === 'move' ? action.previousPath : action.filePath;
    let segments: string[];
    try {
      segments = checkFilePath(path);
    } catch {
      continue; // the action itself reports the bad path
    }
    const last = await lastCommitFor(reader, base, segments.join('/'));
    if (last && last !== action.lastCommitId) throw new StaleFile(req.staleMessage(action));
  }
}

async function apply(index: TreeIndex, action: FileAction): Promise<void> {
  if (action.action === 'invalid') throw new Rejected(action.message);
  try {
    const path = checkFilePath(action.filePath);
    switch (action.action) {
      case 'create':
        return await index.create(path, action.content);
      case 'create_dir':
        return await index.createDir(path);
      case 'update':
        return await index.update(path, action.content);
      case 'move':
        return await index.move(checkFilePath(action.previousPath), path, action.content);
      case 'delete':
        return await index.delete(path);
      case 'chmod':
        return await index.chmod(path, action.executable);
    }
  } catch (err) {
    if (err instanceof PathError || err instanceof IndexError) throw new Rejected(err.message);
    throw err;
  }
}
