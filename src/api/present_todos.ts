// Rendering to-dos (GitLab 10.8's Todo entity): the page's projects, authors, targets and
// comments are loaded in one batch per kind (finders/todos.ts); the target is the full Issue
// or MergeRequest entity as the user sees it, the project BasicProjectDetails.
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { loadTodoTargets } from '../finders/todos.js';
import type { TodoRow } from '../store/activity_rows.js';
import { loadIssueExtras } from '../finders/issues.js';
import { withNamespaces } from '../finders/projects.js';
import { subscriptionsFor } from '../services/issuables/subscriptions.js';
import { issueEntity } from '../entities/issue.js';
import { todoEntity } from '../entities/todo.js';
import { presentMergeRequests } from './present_merge_requests.js';
import { presentProjects } from './present_projects.js';

export async function presentTodos(deps: Deps, user: UserRow, todos: TodoRow[]): Promise<Record<string, unknown>[]> {
  const db = deps.db;
  if (!todos.length) return [];
  const loaded = await loadTodoTargets(db, todos);
  const projects = await withNamespaces(db, loaded.projects);
  const presentedProjects = await presentProjects(deps, user, projects, { view: 'basic' });
  const projectById = new Map(projects.map((p, i) => [p.id, { row: p, json: presentedProjects[i] as unknown }]));

  // Issues: the full entity; `subscribed` is the user's explicit choice, else participation.
  const issues = loaded.issues;
  const issueExtras = await loadIssueExtras(db, issues);
  const subscribed = await subscriptionsFor(
    db,
    user,
    'Issue',
    issues.map((i) => ({
      type: 'Issue' as const,
      id: i.id,
      authorId: i.author_id,
      assigneeIds: issueExtras.assignees.get(i.id) ?? [],
      title: i.title,
      description: i.description,
    })),
  );
  const targets = new Map<string, { iid: number; title: string; json: unknown }>();
  for (const issue of issues) {
    targets.set(`Issue:${issue.id}`, { iid: issue.iid, title: issue.title, json: issueEntity(issue, issueExtras, deps.urls, subscribed.get(issue.id) ?? false) });
  }
  const mrs = loaded.mergeRequests;
  const presentedMrs = await presentMergeRequests(deps, mrs, user);
  mrs.forEach((mr, i) => targets.set(`MergeRequest:${mr.id}`, { iid: mr.iid, title: mr.title, json: presentedMrs[i] }));

  return todos.map((t) =>
    todoEntity(deps.urls, t, {
      project: projectById.get(t.project_id),
      author: t.author_id === null ? undefined : loaded.authors.get(t.author_id),
      target: targets.get(`${t.target_type}:${t.target_id}`),
      noteBody: t.note_id === null ? undefined : loaded.noteBodies.get(t.note_id),
    }),
  );
}
