// Who may see and do what with issues (GitLab 10.8's IssuePolicy on top of ProjectPolicy).
// The only place issue permissions are decided:
// - read: whoever reads the project, while its issues are enabled; a confidential issue only
//   for admins, reporters and up (the owner included), its author and its assignees;
// - create: any reader (guest abilities on public/internal projects);
// - admin (labels, milestone, assignees, due date, lock): reporters and up;
// - update: admin, or the author or an assignee of an issue they can read;
// - destroy: the project owner or an admin.
// An archived project allows reading only (policy/archived.ts); a blocked user nothing.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { OWNER, REPORTER } from './levels.js';
import { isAdmin } from './users.js';
import { refusedOnArchived } from './archived.js';
import { authorizedProjectIds, canReadProject, maxLevel, projectAccess, whereVisibleProjects, type ProjectAccess } from './projects.js';

/** What the policy needs to know of an issue. */
export interface IssueFacts {
  confidential: boolean | number;
  author_id: number | null;
  assigneeIds: number[];
}

function active(user: UserRow | null): user is UserRow {
  return !!user && user.state !== 'blocked';
}

function issuesOn(project: ProjectWithNamespace): boolean {
  return !!project.issues_enabled;
}

/** Whether the user may see the project's issues at all. */
export function canReadIssues(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (user && user.state === 'blocked') return false;
  return issuesOn(project) && canReadProject(user, project, access);
}

/** Admins and reporters and up see every confidential issue of the project. */
function canReadAllConfidential(user: UserRow | null, access: ProjectAccess): boolean {
  return isAdmin(user) || maxLevel(access) >= REPORTER;
}

function authorOrAssignee(user: UserRow | null, issue: IssueFacts): boolean {
  return !!user && (issue.author_id === user.id || issue.assigneeIds.includes(user.id));
}

export function canReadIssue(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, issue: IssueFacts): boolean {
  if (!canReadIssues(user, project, access)) return false;
  if (!issue.confidential) return true;
  return canReadAllConfidential(user, access) || authorOrAssignee(user, issue);
}

export function canCreateIssue(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  return active(user) && !refusedOnArchived(project, 'create_issue') && canReadIssues(user, project, access);
}

/** Labels, milestone, assignees, due date and the discussion lock (admin_issue). */
export function canAdminIssues(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (!active(user) || refusedOnArchived(project, 'admin_issue') || !canReadIssues(user, project, access)) return false;
  return isAdmin(user) || maxLevel(access) >= REPORTER;
}

export function canUpdateIssue(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, issue: IssueFacts): boolean {
  if (!active(user) || refusedOnArchived(project, 'update_issue') || !canReadIssue(user, project, access, issue)) return false;
  return canAdminIssues(user, project, access) || authorOrAssignee(user, issue);
}

export function canDestroyIssue(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (!active(user) || refusedOnArchived(project, 'destroy_issue')) return false;
  return isAdmin(user) || maxLevel(access) >= OWNER;
}

/** `created_at` on create and `updated_at` on edit: admins and the project owner only. */
export function canSetIssueTimestamps(user: UserRow | null, access: ProjectAccess): boolean {
  return isAdmin(user) || access.owner;
}

/** Project ids where the user is a reporter or more (owners of personal projects included). */
function reporterProjectIds(db: Conn, userId: number): Knex.QueryBuilder {
  return authorizedProjectIds(db, userId, REPORTER);
}

/**
 * Restricts a query on `issues as <alias>` joined to `projects as <projectAlias>` to what the
 * user may see: readable projects with issues enabled, and confidential issues only where the
 * user is admin, reporter+, author or assignee.
 */
export function whereVisibleIssues(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'i', projectAlias = 'p'): Knex.QueryBuilder {
  if (user && user.state === 'blocked') return q.whereRaw('1 = 0');
  whereVisibleProjects(q, db, user, projectAlias);
  q.where(`${projectAlias}.issues_enabled`, true);
  return whereConfidentialVisible(q, db, user, alias);
}

/** Confidential issues (under `alias`) only for admins, reporters+ of their project, authors and assignees. */
export function whereConfidentialVisible(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'i'): Knex.QueryBuilder {
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.where(`${alias}.confidential`, false);
    if (user) {
      w.orWhere(`${alias}.author_id`, user.id);
      w.orWhereExists(db('issue_assignees as via').select(db.raw('1')).whereRaw(`via.issue_id = ${alias}.id`).where('via.user_id', user.id));
      w.orWhereIn(`${alias}.project_id`, reporterProjectIds(db, user.id));
    }
  });
}

/** Confidential filtering alone, for a project whose readability is already established. */
export function whereVisibleInProject(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, access: ProjectAccess, alias = 'i'): Knex.QueryBuilder {
  if (canReadAllConfidential(user, access)) return q;
  return q.where((w) => {
    w.where(`${alias}.confidential`, false);
    if (user) {
      w.orWhere(`${alias}.author_id`, user.id);
      w.orWhereExists(db('issue_assignees as via').select(db.raw('1')).whereRaw(`via.issue_id = ${alias}.id`).where('via.user_id', user.id));
    }
  });
}

/** Which of these users may read the project's issues (assignees others cannot see are dropped). */
export async function issueReaders(db: Conn, project: ProjectWithNamespace, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const users: UserRow[] = await db('users').whereIn('id', userIds);
  const out: number[] = [];
  for (const id of userIds) {
    const u = users.find((x) => x.id === id);
    if (u && canReadIssues(u, project, await projectAccess(db, u, project))) out.push(id);
  }
  return out;
}
