// To-do lists (GitLab 10.8 lib/api/todos.rb). Every route needs a signed-in user (401).
// - GET /todos: the user's to-dos (pending by default; filters in src/finders/todos.ts);
// - POST /todos/:id/mark_as_done: 201 with the to-do, now done; another user's (or an
//   unknown) id is "404 Not found";
// - POST /todos/mark_as_done: every pending to-do of the list (same filters) done; 204;
// - POST /projects/:id/issues/:issue_iid/todo and .../merge_requests/:merge_request_iid/todo:
//   a `marked` to-do for the caller, 201; 304 with no body when they already have a pending
//   one on it; a target they cannot read is "404 Not found".
import type Koa from 'koa';
import { HANDLED, route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { recordNotFound } from '../http/errors.js';
import { p, Param } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { findTodo, todosQuery, type TodoFilters } from '../finders/todos.js';
import type { TodoRow } from '../store/activity_rows.js';
import { assigneeIdsOf, findIssue } from '../finders/issues.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import { presentTodos } from './present_todos.js';
import { can } from '../policy/can.js';
import type { TodoTarget } from '../services/todos/todos.js';
import { markListedDone, markOneDone, markTarget } from '../services/todos/marks.js';

/** A filter passed on as it came (10.8 declares none: TodosFinder reads the raw value); the last of repeated ones. */
const text = () =>
  new Param<string | undefined>((raw) => {
    const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  });

const FILTERS = { action: text(), action_id: text(), author_id: text(), project_id: text(), state: text(), type: text() };
const TODO = { schema: 'Todo' } as const;

function filtersOf(v: { [K in keyof typeof FILTERS]?: string | null }): TodoFilters {
  const f = (value: string | null | undefined) => value ?? undefined;
  return { action: f(v.action), actionId: f(v.action_id), authorId: f(v.author_id), projectId: f(v.project_id), state: f(v.state), type: f(v.type) };
}

async function presentOne(deps: Deps, user: UserRow, id: number) {
  const row = await findTodo(deps.db, user, id);
  if (!row) throw recordNotFound();
  return (await presentTodos(deps, user, [row]))[0];
}

/** Marks the target for the user: 201 with the to-do, or 304 with no body when one is pending. */
async function mark(ctx: Koa.Context, deps: Deps, user: UserRow, target: TodoTarget) {
  const id = await markTarget(deps.db, user, target);
  if (id === null) {
    ctx.status = 304;
    ctx.body = null;
    return HANDLED;
  }
  return presentOne(deps, user, id);
}

export const todoRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/todos',
    auth: 'user',
    params: FILTERS,
    summary: "The user's to-dos (pending by default)",
    response: { ...TODO, list: true },
    handler: async ({ ctx, deps, user, params }) => {
      const { query } = await todosQuery(deps.db, user, filtersOf(params));
      return presentTodos(deps, user, await paginate<TodoRow>(ctx, deps.db, query));
    },
  }),

  route({
    method: 'POST',
    path: '/todos/mark_as_done',
    auth: 'user',
    params: FILTERS,
    summary: 'Mark every pending to-do of the list done',
    handler: async ({ deps, user, params }) => {
      await markListedDone(deps.db, user, filtersOf(params));
    },
    status: 204,
  }),

  route({
    method: 'POST',
    path: '/todos/:id/mark_as_done',
    auth: 'user',
    params: { id: p.integer().required() },
    summary: 'Mark one of your to-dos done',
    response: TODO,
    handler: async ({ deps, user, params: { id } }) => {
      await markOneDone(deps.db, user, id);
      return presentOne(deps, user, id);
    },
  }),

  // A target the user may not read is "404 Not found", as 10.8's finders answer.
  route({
    method: 'POST',
    path: '/projects/:id/issues/:issue_iid/todo',
    auth: 'user',
    load: 'project',
    params: { issue_iid: p.integer().required() },
    summary: 'Add a to-do for the user on an issue (304 when one is pending)',
    response: TODO,
    handler: async ({ ctx, deps, user, project, access, params }) => {
      const issue = await findIssue(deps.db, project.id, params.issue_iid);
      if (!issue) throw recordNotFound();
      const facts = { confidential: issue.confidential, author_id: issue.author_id, assigneeIds: await assigneeIdsOf(deps.db, issue.id) };
      if (!can(user, { kind: 'issue', project, access, issue: facts }, 'read_issue')) throw recordNotFound();
      return mark(ctx, deps, user, { type: 'Issue', id: issue.id, projectId: project.id });
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/merge_requests/:merge_request_iid/todo',
    auth: 'user',
    load: 'project',
    params: { merge_request_iid: p.integer().required() },
    summary: 'Add a to-do for the user on a merge request (304 when one is pending)',
    response: TODO,
    handler: async ({ ctx, deps, user, project, access, params }) => {
      const mr = await findMergeRequest(deps.db, project.id, params.merge_request_iid);
      if (!mr) throw recordNotFound();
      const facts = { author_id: mr.author_id, assignee_id: mr.assignee_id };
      if (!can(user, { kind: 'merge_request', project, access, mergeRequest: facts }, 'read_merge_request')) throw recordNotFound();
      return mark(ctx, deps, user, { type: 'MergeRequest', id: mr.id, projectId: project.id });
    },
  }),
];
