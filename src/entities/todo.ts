// GitLab 10.8's Todo entity, in its key order: id, project (BasicProjectDetails), author
// (UserBasic), action_name, target_type, target (the full Issue or MergeRequest entity, as
// the user sees it), target_url (the target's web page, `#note_<id>` for a to-do raised by a
// comment), body (the comment's text, else the target's title), state, created_at. A page
// loads its projects, authors, targets and notes in one batch per kind.
import type { Deps } from '../deps.js';
import type { ProjectRow, UserRow } from '../store/rows.js';
import type { TodoRow } from '../store/activity_rows.js';
import type { IssueRow, MergeRequestRow } from '../store/issuable_rows.js';
import { loadIssueExtras } from '../finders/issues.js';
import { TODO_ACTIONS } from '../store/todo_actions.js';
import { issueEntity } from './issue.js';
import { presentMergeRequests } from './merge_request.js';
import { subscriptionsFor } from '../services/subscriptions.js';
import { presentProjects, withNamespaces } from './project.js';
import { userBasic } from './user.js';

const ACTION_NAMES = new Map<number, string>(Object.entries(TODO_ACTIONS).map(([name, id]) => [id, name]));

export async function presentTodos(deps: Deps, user: UserRow, todos: TodoRow[]): Promise<Record<string, unknown>[]> {
  const db = deps.db;
  if (!todos.length) return [];
  const ids = (type: string) => [...new Set(todos.filter((t) => t.target_type === type).map((t) => t.target_id))];
  const projectIds = [...new Set(todos.map((t) => t.project_id))];
  const authorIds = [...new Set(todos.map((t) => t.author_id).filter((x): x is number => x !== null))];
  const noteIds = [...new Set(todos.map((t) => t.note_id).filter((x): x is number => x !== null))];
  const [projectRows, authors, issues, mrs, notes] = await Promise.all([
    db('projects').whereIn('id', projectIds) as Promise<ProjectRow[]>,
    authorIds.length ? (db('users').whereIn('id', authorIds) as Promise<UserRow[]>) : [],
    ids('Issue').length ? (db('issues').whereIn('id', ids('Issue')) as Promise<IssueRow[]>) : [],
    ids('MergeRequest').length ? (db('merge_requests').whereIn('id', ids('MergeRequest')) as Promise<MergeRequestRow[]>) : [],
    noteIds.length ? (db('notes').whereIn('id', noteIds).select('id', 'body') as Promise<{ id: number; body: string }[]>) : [],
  ]);
  const projects = await withNamespaces(db, projectRows);
  const presentedProjects = await presentProjects(deps, user, projects, { view: 'basic' });
  const projectById = new Map(projects.map((p, i) => [p.id, { row: p, json: presentedProjects[i] }]));

  // Issues: the full entity; `subscribed` is the user's explicit choice, else participation.
  const issueExtras = await loadIssueExtras(db, issues);
  const subscribed = await subscriptionsFor(
    db,
    user,
    'Issue',
    issues.map((i) => ({ type: 'Issue' as const, id: i.id, authorId: i.author_id, assigneeIds: issueExtras.assignees.get(i.id) ?? [], title: i.title, description: i.description })),
  );
  const issueJson = new Map<number, unknown>();
  for (const issue of issues) issueJson.set(issue.id, issueEntity(issue, issueExtras, deps.urls, subscribed.get(issue.id) ?? false));
  const mrJson = new Map<number, unknown>();
  const presentedMrs = await presentMergeRequests(deps, mrs, user);
  mrs.forEach((mr, i) => mrJson.set(mr.id, presentedMrs[i]));

  const authorById = new Map(authors.map((u) => [u.id, u]));
  const noteBody = new Map(notes.map((n) => [n.id, n.body]));
  const issueById = new Map(issues.map((i) => [i.id, i]));
  const mrById = new Map(mrs.map((m) => [m.id, m]));
  return todos.map((t) => {
    const project = projectById.get(t.project_id);
    const author = t.author_id === null ? undefined : authorById.get(t.author_id);
    const target = t.target_type === 'Issue' ? issueById.get(t.target_id) : mrById.get(t.target_id);
    const fullPath = project ? `${project.row.namespace.full_path}/${project.row.path}` : '';
    const page = t.target_type === 'Issue' ? 'issues' : 'merge_requests';
    const anchor = t.note_id !== null ? `#note_${t.note_id}` : '';
    const body = t.note_id !== null && noteBody.has(t.note_id) ? noteBody.get(t.note_id)! : (target?.title ?? null);
    return {
      id: t.id,
      project: project?.json ?? null,
      author: author ? userBasic(author, deps.urls) : null,
      action_name: ACTION_NAMES.get(t.action) ?? null,
      target_type: t.target_type,
      target: (t.target_type === 'Issue' ? issueJson.get(t.target_id) : mrJson.get(t.target_id)) ?? null,
      target_url: target ? deps.urls.web(`${fullPath}/${page}/${target.iid}${anchor}`) : null,
      body,
      state: t.state,
      created_at: t.created_at,
    };
  });
}
