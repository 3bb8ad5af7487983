// Who may hold a to-do on a target (GitLab 10.8's TodoService#reject_users_without_access):
// only users who may read it. An issue follows the issue policy (confidential issues: admins,
// reporters and up, author, assignees); a merge request the merge request policy (guests of
// a private project do not see them; its author and assignee always do). A to-do is only
// ever shown or changed by its own user.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { canReadIssue } from './issues.js';
import { canReadMergeRequests } from './merge_requests.js';
import { projectAccess, whereVisibleProjects } from './projects.js';
import { isAdmin } from './users.js';
import { issueVisible, mergeRequestVisible } from './events.js';

export type TodoTargetFacts =
  | { type: 'Issue'; confidential: boolean | number; author_id: number | null; assigneeIds: number[] }
  | { type: 'MergeRequest'; author_id: number | null; assignee_id: number | null };

async function canReadTodoTarget(db: Conn, user: UserRow, project: ProjectWithNamespace, target: TodoTargetFacts): Promise<boolean> {
  if (user.state === 'blocked') return false;
  const access = await projectAccess(db, user, project);
  if (target.type === 'Issue') return canReadIssue(user, project, access, target);
  if (canReadMergeRequests(user, project, access)) return true;
  return !!project.merge_requests_enabled && (target.author_id === user.id || target.assignee_id === user.id);
}

/** The users among `userIds` who may read the target, in the given order. */
export async function todoReaders(db: Conn, project: ProjectWithNamespace, target: TodoTargetFacts, userIds: number[]): Promise<number[]> {
  if (!userIds.length) return [];
  const users: UserRow[] = await db('users').whereIn('id', userIds);
  const byId = new Map(users.map((u) => [u.id, u]));
  const out: number[] = [];
  for (const id of userIds) {
    const user = byId.get(id);
    if (user && (await canReadTodoTarget(db, user, project, target))) out.push(id);
  }
  return out;
}

/**
 * Restricts a query on `todos as <alias>` joined to `projects as <projectAlias>` to the
 * to-dos whose project and target the user may still read (an issue made confidential since,
 * merge requests no longer readable): their target is shown in full.
 */
export function whereReadableTodos(q: Knex.QueryBuilder, db: Conn, user: UserRow, alias = 't', projectAlias = 'p'): Knex.QueryBuilder {
  whereVisibleProjects(q, db, user, projectAlias);
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.where((i) => i.where(`${alias}.target_type`, 'Issue').whereExists(issueVisible(db, user, `${alias}.target_id`, projectAlias)));
    w.orWhere((m) => m.where(`${alias}.target_type`, 'MergeRequest').whereExists(mergeRequestVisible(db, user, `${alias}.target_id`, projectAlias)));
  });
}
