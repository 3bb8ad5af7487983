// Who may see and do what with merge requests (GitLab 10.8's ProjectPolicy and
// MergeRequestPolicy). The only place merge request permissions are decided.
// - read: admins; everyone who reads a public project (signed-in users: internal ones);
//   reporters and up on private projects (guests of a private project do not), while the
//   project's merge requests are enabled; the author and the assignee always;
// - create_merge_request_in (the target side): guest abilities (members, or any signed-in
//   user of a public/internal project); create_merge_request_from (the source side):
//   developers and up;
// - admin (labels, milestone, assignee, discussion lock): developers and up;
// - update: developers and up, or the author or assignee;
// - destroy: the project owner or an admin;
// - merge (MergeRequest#can_be_merged_by?, Gitlab::UserAccess#can_update_branch?): whoever may
//   push to the target branch or merge into it under its protection (an unprotected branch:
//   developers and up; a protected one: its push or merge access levels).
// Merge requests disabled removes everything; an archived project allows reading only
// (policy/archived.ts); a blocked user nothing.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { DEVELOPER, GUEST, INTERNAL, OWNER, PUBLIC, REPORTER } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { authorizedProjectIds, projectCan, maxLevel, projectAccess, type ProjectAccess } from './projects.js';
import { BranchRules } from './branches.js';
import { refusedOnArchived } from './archived.js';

/** What the policy needs to know of a merge request. */
export interface MergeRequestFacts {
  author_id: number | null;
  assignee_id: number | null;
}

function active(user: UserRow | null): user is UserRow {
  return !!user && user.state !== 'blocked';
}

function authorOrAssignee(user: UserRow | null, mr: MergeRequestFacts): boolean {
  return !!user && (mr.author_id === user.id || mr.assignee_id === user.id);
}

export function canReadMergeRequests(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (user && user.state === 'blocked') return false;
  if (!project.merge_requests_enabled) return false;
  if (isAdmin(user)) return true;
  if (project.visibility_level >= PUBLIC) return true;
  if (project.visibility_level >= INTERNAL && isSignedInRegular(user)) return true;
  return maxLevel(access) >= REPORTER;
}

/** One merge request: the project's readers, and its author and assignee (IssuablePolicy). */
export function canReadMergeRequest(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, mr: MergeRequestFacts): boolean {
  if (canReadMergeRequests(user, project, access)) return true;
  return active(user) && !!project.merge_requests_enabled && authorOrAssignee(user, mr);
}

/** Guest abilities: a member, or any signed-in regular user of a public or internal project. */
function guestAccess(user: UserRow, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (isAdmin(user) || maxLevel(access) >= GUEST) return true;
  return project.visibility_level >= PUBLIC || (project.visibility_level >= INTERNAL && isSignedInRegular(user));
}

/** Merge requests enabled, and the ability not refused by the archived rule. */
function writable(project: ProjectWithNamespace, ability: string): boolean {
  return !!project.merge_requests_enabled && !refusedOnArchived(project, ability);
}

/** The target side of a new merge request. */
export function canCreateMergeRequestIn(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  return active(user) && writable(project, 'create_merge_request_in') && guestAccess(user, project, access);
}

/** The source side of a new merge request: developers and up. */
export function canCreateMergeRequestFrom(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  return active(user) && writable(project, 'create_merge_request_from') && (isAdmin(user) || maxLevel(access) >= DEVELOPER);
}

/** Labels, milestone, assignee and the discussion lock (admin_merge_request). */
export function canAdminMergeRequests(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  return active(user) && writable(project, 'admin_merge_request') && (isAdmin(user) || maxLevel(access) >= DEVELOPER);
}

export function canUpdateMergeRequest(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, mr: MergeRequestFacts): boolean {
  if (!active(user) || !writable(project, 'update_merge_request')) return false;
  return canAdminMergeRequests(user, project, access) || authorOrAssignee(user, mr);
}

export function canDestroyMergeRequest(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (!active(user) || !writable(project, 'destroy_merge_request')) return false;
  return isAdmin(user) || maxLevel(access) >= OWNER;
}

/**
 * Restricts a query on `merge_requests as <alias>` joined to `projects as <projectAlias>` to
 * what the user may read: projects with merge requests enabled that are public, internal
 * (signed-in regular users) or where the user is a reporter or more; admins everything.
 */
export function whereVisibleMergeRequests(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, projectAlias = 'p'): Knex.QueryBuilder {
  if (user && user.state === 'blocked') return q.whereRaw('1 = 0');
  q.where(`${projectAlias}.merge_requests_enabled`, true);
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.where(`${projectAlias}.visibility_level`, PUBLIC);
    if (user) {
      if (isSignedInRegular(user)) w.orWhere(`${projectAlias}.visibility_level`, INTERNAL);
      w.orWhereIn(`${projectAlias}.id`, authorizedProjectIds(db, user.id, REPORTER));
    }
  });
}

/** Which of these users may read the project's merge requests (other assignees are dropped). */
export async function mergeRequestReaders(db: Conn, project: ProjectWithNamespace, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const users: UserRow[] = await db('users').whereIn('id', userIds);
  const out: number[] = [];
  for (const id of userIds) {
    const u = users.find((x) => x.id === id);
    if (u && canReadMergeRequests(u, project, await projectAccess(db, u, project))) out.push(id);
  }
  return out;
}

/** The target branch of a merge request with its project's protection rules: what merge_merge_request decides from. */
export interface TargetBranchFacts {
  name: string;
  rules: BranchRules;
}

export async function targetBranchFacts(db: Conn, project: Pick<ProjectWithNamespace, 'id'>, mr: { target_branch: string }): Promise<TargetBranchFacts> {
  return { name: mr.target_branch, rules: await BranchRules.load(db, project) };
}

/** MergeRequest#can_be_merged_by? (can_update_branch?): push or merge rights on the target branch. */
export function canMergeInto(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, target: TargetBranchFacts): boolean {
  return target.rules.canPush(user, project, access, target.name) || target.rules.canMerge(user, project, access, target.name);
}

/** canMergeInto with the target project's rules loaded. */
async function canMergeMergeRequest(db: Conn, project: ProjectWithNamespace, access: ProjectAccess, user: UserRow | null, mr: { target_branch: string }): Promise<boolean> {
  return canMergeInto(user, project, access, await targetBranchFacts(db, project, mr));
}

/** Cancelling "merge when pipeline succeeds": whoever may merge, and the author. */
export async function canCancelAutomaticMerge(
  db: Conn,
  project: ProjectWithNamespace,
  access: ProjectAccess,
  user: UserRow,
  mr: { target_branch: string; author_id: number | null },
): Promise<boolean> {
  return mr.author_id === user.id || (await canMergeMergeRequest(db, project, access, user, mr));
}

/** MergeRequest#can_remove_source_branch?: push rights, and not protected nor the default branch. */
export async function canRemoveSourceBranch(db: Conn, user: UserRow, source: ProjectWithNamespace, access: ProjectAccess, branch: string): Promise<boolean> {
  if (source.default_branch === branch || !projectCan(user, source, access, 'push_code')) return false;
  return !(await BranchRules.load(db, source)).isProtected(branch);
}
