// The ref GitLab keeps for every merge request in its target repository:
// refs/merge-requests/<iid>/head, the source branch's head. For a merge request from a fork
// the commits are brought over with a native `git fetch` between the two bare repositories
// (objects the target already has are not copied), so that the target repository alone can
// show the diff, list the commits and test the merge.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readRef } from './refs.js';

const run = promisify(execFile);

function mergeRequestHeadRef(iid: number): string {
  return `refs/merge-requests/${iid}/head`;
}

async function git(gitdir: string, args: string[]): Promise<void> {
  await run('git', [`--git-dir=${gitdir}`, ...args], { maxBuffer: 16 * 1024 * 1024 });
}

/**
 * Points refs/merge-requests/<iid>/head of `targetDir` at the head of `branch` in
 * `sourceDir` (the same repository or a fork). Returns the commit written, or null when the
 * branch does not exist.
 */
export async function writeMergeRequestHead(targetDir: string, sourceDir: string, branch: string, iid: number): Promise<string | null> {
  const ref = mergeRequestHeadRef(iid);
  if (sourceDir === targetDir) {
    const head = await readRef(sourceDir, `refs/heads/${branch}`);
    if (!head) return null;
    if ((await readRef(targetDir, ref)) !== head) await git(targetDir, ['update-ref', ref, head]);
    return head;
  }
  const head = await readRef(sourceDir, `refs/heads/${branch}`);
  if (!head) return null;
  if ((await readRef(targetDir, ref)) === head) return head;
  // Fetch by branch name (a bare sha needs uploadpack settings); what arrived is the answer.
  await git(targetDir, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', sourceDir, `+refs/heads/${branch}:${ref}`]);
  return readRef(targetDir, ref);
}

/** Removes the merge request's ref (the merge request is gone). */
export async function deleteMergeRequestRefs(targetDir: string, iid: number): Promise<void> {
  await git(targetDir, ['update-ref', '-d', mergeRequestHeadRef(iid)]).catch(() => undefined);
}
