// Cherry-picking a commit onto a branch (GitLab 10.8's Commits::CherryPickService through
// Repository#cherry_pick): the user must be allowed to push to the branch, the commit's
// change is merged onto the branch head (git/cherry_pick.ts) and written as a new commit
// whose parent is that head, the author kept, the user the committer, the message the
// commit's with "(cherry picked from commit <sha>)" below it, and, for the merge commit of a
// merged merge request, that merge request's commits (Commit#cherry_pick_description). A
// change that conflicts or is already there is GitLab's CreateTreeError message, which names
// a "merge request" instead of a "commit" then. The branch moves by compare-and-swap
// under the repository lock (file_writes.ts moveBranch), then what follows every ref move.
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { commitTitle } from '../../store/commit_title.js';
import { mergeRequestCommits } from '../merge_requests/diff.js';
import { NotFound, Rejected } from '../../store/domain_errors.js';
import { canPushToBranch } from '../../policy/branches.js';
import { cherryPickTree, rawMessage } from '../../git/cherry_pick.js';
import { readRef } from '../../git/refs.js';
import { RepoReader, type CommitInfo } from '../../git/reader.js';
import { ObjectBatch } from '../../git/writer.js';
import { afterRefsMoved } from '../push/refs_moved.js';
import { whileRepositoryExists } from './guard.js';
import { moveBranch, type ProjectContext } from './file_writes.js';

// 10.8 builds this message from a Ruby literal that spans two lines: the line break and the
// second line's indentation are part of the answer, so they are kept byte for byte.
export function cannotCherryPick(kind: 'commit' | 'merge request'): string {
  return `Sorry, we cannot cherry-pick this ${kind} automatically.\n                   This ${kind} may already have been cherry-picked, or a more recent commit may have updated some of its content.`;
}
export const CANNOT_CHERRY_PICK = cannotCherryPick('commit');
const NOT_ALLOWED = 'You are not allowed to push into this branch';

/** Picks `sha` (a commit id, branch or tag) onto `branch`; the new head commit. */
export async function cherryPick(deps: Deps, loaded: ProjectContext, sha: string, branch: string): Promise<CommitInfo> {
  return whileRepositoryExists(deps, loaded.project, async (gitdir) => {
    const { project, access } = loaded;
    const user = loaded.user as UserRow; // push_code was authorized: never anonymous
    const reader = new RepoReader(gitdir);
    const oid = await reader.resolveCommit(sha);
    if (!oid) throw new NotFound('Commit');
    const head = await readRef(gitdir, `refs/heads/${branch}`);
    if (!head) throw new NotFound('Branch');
    if (!(await canPushToBranch(deps.db, user, project, access, branch, false))) throw new Rejected(NOT_ALLOWED);

    const picked = await reader.commit(oid);
    const merged = picked.parents.length > 1 ? await mergedMergeRequest(deps, project, oid) : undefined;
    const tree = await cherryPickTree(gitdir, oid, head);
    if (!tree) throw new Rejected(cannotCherryPick(merged ? 'merge request' : 'commit'));
    const author = { name: picked.author.name, email: picked.author.email, timestamp: picked.author.timestamp };
    const committer = { name: user.name, email: user.email, timestamp: Math.floor(Date.now() / 1000) };
    const description = `(cherry picked from commit ${oid})${merged ? await mergedCommitList(deps, project, merged) : ''}`;
    const message = `${await rawMessage(gitdir, oid)}\n\n${description}`.replace(/\r/g, '');
    const batch = new ObjectBatch(gitdir);
    const newOid = batch.commit({ tree, parents: [head], author, committer, message });
    await batch.flush();

    await moveBranch(deps, project, branch, newOid, head);
    await afterRefsMoved(deps, { project, user, updates: [{ ref: `refs/heads/${branch}`, oldOid: head, newOid }], statistics: 'now' });
    const person = (p: typeof author) => ({ ...p, timezoneOffset: 0 });
    return { oid: newOid, parents: [head], tree, message, author: person(author), committer: person(committer) };
  });
}

/** The merged merge request whose merge commit `oid` is (Commit#merged_merge_request). */
function mergedMergeRequest(deps: Deps, project: ProjectWithNamespace, oid: string): Promise<MergeRequestRow | undefined> {
  return deps.db('merge_requests').where({ target_project_id: project.id, merge_commit_sha: oid, state: 'merged' }).orderBy('id').first();
}

/** Its commits, oldest first, one "<short id> <title>" a line, after a blank line. */
async function mergedCommitList(deps: Deps, project: ProjectWithNamespace, mr: MergeRequestRow): Promise<string> {
  const commits = await mergeRequestCommits(deps, project, mr);
  if (!commits.length) return '';
  return `\n${[...commits]
    .reverse()
    .map((c) => `\n${c.oid.slice(0, 8)} ${commitTitle(c.message)}`)
    .join('')}`;
}
