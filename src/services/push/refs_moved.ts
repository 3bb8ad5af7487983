// What follows every change of a project's refs, whoever made it: a git push over HTTP or
// SSH (GitLab 10.8's PostReceive → GitPushService / GitTagPushService), an API write (files,
// commits, branches, tags, merges: GitLab's `web` protocol goes through the same services) or
// an import (Project#after_import). One function, one order:
//
//  1. the default branch: the first branch of an empty repository becomes it (HEAD's branch
//     when it was pushed, else the first created), or the one an import names;
//  2. the project's last activity, and the default branch protected
//     (after_create_default_branch);
//  3. the push announced (services/notify.ts: push events and the pusher's activity,
//     push and tag push hooks), its CI pipelines queued, the merge requests of the moved
//     branches refreshed (a durable job run at once), the push counted for housekeeping;
//  4. the statistics.
//
// The differences between writers are the options: `statistics` ('queued' for a git push,
// whose first push may walk thousands of commits, so the push's answer does not wait;
// 'now' for API writes and imports, whose caller reads them next) and `asPush` (false for an
// import: GitLab records no push event, starts no pipeline and refreshes no merge request
// for an imported repository). `user` is null for a deploy key whose creator was deleted,
// which GitLab's PostReceive cannot identify: step 3 is skipped.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { fullPathOf } from '../../finders/projects.js';
import { listBranchHeads } from '../../git/refs.js';
import { now } from '../../store/time.js';
import { queueStatisticsRefresh, refreshStatistics } from '../repository/statistics.js';
import { protectDefaultBranch } from '../repository/protected_branches.js';
import { countPushForHousekeeping } from '../repository/housekeeping.js';
import { UPDATE_MERGE_REQUESTS_JOB, type UpdateMergeRequestsPayload } from '../merge_requests/refresh.js';
import { queuePushPipelines } from '../ci/push_pipelines.js';
import { announcePush } from './push_events.js';
import type { PushedRef } from './pushed_ref.js';

const BRANCH = 'refs/heads/';
const blank = (oid: string) => /^0+$/.test(oid);

export interface RefsMoved {
  project: ProjectWithNamespace;
  user: UserRow | null;
  updates: PushedRef[];
  statistics: 'queued' | 'now';
  /** Default true; false for an import. */
  asPush?: boolean;
  /** The default branch an import set (imports only; others are found from the refs). */
  importedDefaultBranch?: string | null;
}

export async function afterRefsMoved(deps: Deps, moved: RefsMoved): Promise<void> {
  const asPush = moved.asPush ?? true;
  if (asPush && !moved.updates.length) return;
  const gitdir = deps.repos.pathFor(fullPathOf(moved.project));
  const fresh: ProjectWithNamespace = { ...moved.project, ...(await deps.db('projects').where({ id: moved.project.id }).first()) };

  const branch = asPush ? await firstDefaultBranch(fresh, gitdir, moved.updates) : (moved.importedDefaultBranch ?? null);
  const changes: { last_activity_at: string; default_branch?: string } = { last_activity_at: now() };
  if (branch && asPush) {
    changes.default_branch = branch;
    await deps.repos.setHead(fullPathOf(fresh), branch);
  }
  await deps.db('projects').where({ id: fresh.id }).update(changes);
  const project: ProjectWithNamespace = { ...fresh, ...changes };
  if (branch) await protectDefaultBranch(deps.db, project, branch);

  if (asPush && moved.user) await pushed(deps, project, moved.user, moved.updates);

  if (moved.statistics === 'queued') {
    await queueStatisticsRefresh(deps.db, project.id);
    return;
  }
  try {
    await refreshStatistics(deps, project);
  } catch (err) {
    // The refs have moved; statistics are refreshed again by the next write.
    deps.log.warn({ err, project: project.id }, 'statistics refresh failed');
  }
}

/** Step 3: the push's events and hooks, pipelines, merge request refresh and housekeeping count. */
async function pushed(deps: Deps, project: ProjectWithNamespace, user: UserRow, updates: PushedRef[]): Promise<void> {
  await announcePush(deps, project, user, updates);
  await queuePushPipelines(deps.db, { projectId: project.id, userId: user.id, updates });
  const refresh: UpdateMergeRequestsPayload = { projectId: project.id, userId: user.id, updates };
  await deps.jobs.perform(UPDATE_MERGE_REQUESTS_JOB, refresh, { queue: 'update_merge_requests' });
  try {
    await countPushForHousekeeping(deps, project.id);
  } catch (err) {
    deps.log.warn({ err, project: project.id }, 'push not counted for housekeeping'); // the push has landed
  }
}

/**
 * The default branch for a project whose repository had no branch before these updates
 * (every branch it has now was created by them): HEAD's branch when it was among them, else
 * the first created branch. Null when the project already has a default branch that exists.
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
