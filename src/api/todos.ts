// To-do lists (GitLab 10.8 lib/api/todos.rb). Every route needs a signed-in user (401).
// - GET /todos: the user's to-dos (pending by default; filters in src/finders/todos.ts);
// - POST /todos/:id/mark_as_done: 201 with the to-do, now done; another user's (or an
//   unknown) id is "404 Not found";
// - POST /todos/mark_as_done: every pending to-do of the list (same filters) done; 204;
// - POST /projects/:id/issues/:issue_iid/todo and .../merge_requests/:merge_request_iid/todo:
//   a `marked` to-do for the caller, 201; 304 with no body when they already have a pending
//   one on it; a target they cannot read is "404 Not found".
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { requireUser } from '../http/auth.js';
import { recordNotFound } from '../http/errors.js';
import { p, parseValues, rawParams } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { findTodo, todosQuery, type TodoFilters, type TodoRow } from '../finders/todos.js';
import { findIssue } from '../finders/issues.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import { presentTodos } from '../entities/todo.js';
import { canReadTodoTarget } from '../policy/todos.js';
import { markTodo, markUserTodosDone, type TodoTarget } from '../services/todos.js';
import { loadProject } from './loaders.js';

function text(raw: unknown): string | undefined {
  const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

function filtersOf(ctx: Koa.Context): TodoFilters {
  const raw = rawParams(ctx);
  return {
    action: text(raw.action),
    actionId: text(raw.action_id),
    authorId: text(raw.author_id),
    projectId: text(raw.project_id),
    state: text(raw.state),
    type: text(raw.type),
  };
}

export function todosRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  async function presentOne(user: UserRow, id: number) {
    const row = await findTodo(db, user, id);
    if (!row) throw recordNotFound();
    return (await presentTodos(deps, user, [row]))[0];
  }

  router.get('/todos', async (ctx) => {
    const user = requireUser(ctx);
    const { query } = await todosQuery(db, user, filtersOf(ctx));
    const rows = await paginate<TodoRow>(ctx, db, query);
    ctx.body = await presentTodos(deps, user, rows);
  });

  router.post('/todos/mark_as_done', async (ctx) => {
    const user = requireUser(ctx);
    const { query } = await todosQuery(db, user, filtersOf(ctx));
    const ids = (await query.clearSelect().clearOrder().select('t.id')).map((r: { id: number }) => r.id);
    if (ids.length) await db.transaction((tx) => markUserTodosDone(tx, user.id, ids));
    ctx.status = 204;
    ctx.body = null;
  });

  router.post('/todos/:id/mark_as_done', async (ctx) => {
    const user = requireUser(ctx);
    const { id } = parseValues({ id: ctx.params.id }, { id: p.integer().required() });
    await db.transaction((tx) => markUserTodosDone(tx, user.id, [id]));
    ctx.status = 201;
    ctx.body = await presentOne(user, id);
  });

  async function mark(ctx: Koa.Context, user: UserRow, target: TodoTarget) {
    const id = await db.transaction((tx) => markTodo(tx, user, target));
    if (id === null) {
      ctx.status = 304;
      ctx.body = null;
      return;
    }
    ctx.status = 201;
    ctx.body = await presentOne(user, id);
  }

  router.post('/projects/:id/issues/:issue_iid/todo', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const { issue_iid: iid } = parseValues({ issue_iid: ctx.params.issue_iid }, { issue_iid: p.integer().required() });
    const issue = await findIssue(db, loaded.project.id, iid);
    if (!issue) throw recordNotFound();
    const assignees: { user_id: number }[] = await db('issue_assignees').where({ issue_id: issue.id }).select('user_id');
    const facts = { type: 'Issue' as const, confidential: issue.confidential, author_id: issue.author_id, assigneeIds: assignees.map((a) => a.user_id) };
    if (!(await canReadTodoTarget(db, user, loaded.project, facts))) throw recordNotFound();
    await mark(ctx, user, { type: 'Issue', id: issue.id, projectId: loaded.project.id });
  });

  router.post('/projects/:id/merge_requests/:merge_request_iid/todo', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const { merge_request_iid: iid } = parseValues({ merge_request_iid: ctx.params.merge_request_iid }, { merge_request_iid: p.integer().required() });
    const mr = await findMergeRequest(db, loaded.project.id, iid);
    if (!mr) throw recordNotFound();
    const facts = { type: 'MergeRequest' as const, author_id: mr.author_id, assignee_id: mr.assignee_id };
    if (!(await canReadTodoTarget(db, user, loaded.project, facts))) throw recordNotFound();
    await mark(ctx, user, { type: 'MergeRequest', id: mr.id, projectId: loaded.project.id });
  });

  return router;
}
