// What follows a push over git once its refs have moved (GitLab's PostReceive worker and
// GitPushService): the first push to an empty project picks its default branch and
// protects it, activity times move, push events are recorded and merge requests of the
// moved branches refreshed (services/push/ref_updates.ts), and statistics are refreshed.
//
// The push's response waits for everything but the statistics, so that the API agrees with
// the client the moment `git push` returns. Statistics (a history walk: over a second for a
// first push of thousands of commits) are refreshed by a background job (services/
// repository/statistics.ts), as GitLab's ProjectCacheWorker did; pushes meanwhile coalesce into one.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { fullPathOf, gitdirOf } from '../../finders/projects.js';
import { listBranchHeads } from '../../git/refs.js';
import { now } from '../../store/time.js';
import { queueStatisticsRefresh } from '../repository/statistics.js';
import { protectDefaultBranch } from '../repository/protected_branches.js';
import { refsUpdated } from './ref_updates.js';
import type { PushedRef } from './pushed_ref.js';

const BRANCH = 'refs/heads/';
const blank = (oid: string) => /^0+$/.test(oid);

/**
 * `user` is who pushed: null for a deploy key whose creator was deleted, which GitLab's
 * PostReceive cannot identify, so no events are recorded and no merge request is refreshed.
 */
export async function afterPush(deps: Deps, project: ProjectWithNamespace, user: UserRow | null, updates: PushedRef[]): Promise<void> {
  if (!updates.length) return;
  const gitdir = gitdirOf(deps.repos, project);
  const fresh: ProjectWithNamespace = { ...project, ...(await deps.db('projects').where({ id: project.id }).first()) };
  const stamp = now();
  const changes: { last_activity_at: string; default_branch?: string } = { last_activity_at: stamp };

  const branch = await firstDefaultBranch(fresh, gitdir, updates);
  if (branch) {
    changes.default_branch = branch;
    await deps.repos.setHead(fullPathOf(fresh), branch);
  }
  await deps.db('projects').where({ id: project.id }).update(changes);
  if (branch) await protectDefaultBranch(deps.db, fresh, branch);
  await recordUserActivity(deps, user);

  if (user) await refsUpdated(deps, fresh, user, updates);

  await queueStatisticsRefresh(deps.db, project.id);
}

/**
 * The default branch for a project whose repository had no branch before this push (every
 * branch it has now was created by it): HEAD's branch when it was pushed, else the first
 * pushed branch. Null when the project already has a default branch that exists.
 */
async function firstDefaultBranch(project: ProjectWithNamespace, gitdir: string, updates: PushedRef[]): Promise<string | null> {
  const created = updates.filter((u) => u.ref.startsWith(BRANCH) && blank(u.oldOid) && !blank(u.newOid)).map((u) => u.ref.slice(BRANCH.length));
  if (!created.length) return null;
  const heads = await listBranchHeads(gitdir);
  if (project.default_branch && heads.has(project.default_branch)) return null;
  if ([...heads.keys()].some((b) => !created.includes(b))) return null; // not empty before: leave it to the owner
  const head = await headBranch(gitdir);
  if (head && created.includes(head) && heads.has(head)) return head;
  return created.find((b) => heads.has(b)) ?? null;
}

async function headBranch(gitdir: string): Promise<string | null> {
  try {
    const text = (await fs.promises.readFile(path.join(gitdir, 'HEAD'), 'utf8')).trim();
    return text.startsWith(`ref: ${BRANCH}`) ? text.slice(`ref: ${BRANCH}`.length) : null;
  } catch {
    return null;
  }
}

/** GitLab's Users::ActivityService: `last_activity_on`, at most one write a day. */
export async function recordUserActivity(deps: Deps, user: UserRow | null): Promise<void> {
  if (!user) return;
  const today = now().slice(0, 10);
  if (user.last_activity_on === today) return;
  await deps.db('users').where({ id: user.id }).update({ last_activity_on: today });
}
