// The current user's to-dos (GitLab 10.8's TodosFinder as lib/api/todos.rb drives it): pending
// unless `state=done`; `action` (a name) or `action_id`, `author_id` (0: none; unknown → 404),
// `project_id` (unknown → 404; unreadable → nothing), `type` (Issue|MergeRequest); values
// that are not recognised are ignored, as the API declares none of these. Newest id first.
// Only to-dos on projects and targets the user may read are listed (src/policy/todos.ts).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { RecordNotFound } from '../store/domain_errors.js';
import { TODO_ACTIONS, type TodoAction } from '../store/todo_actions.js';
import { whereReadableTodos } from '../policy/todos.js';
import type { TodoRow } from '../store/activity_rows.js';

export interface TodoFilters {
  action?: string;
  actionId?: string;
  authorId?: string;
  projectId?: string;
  state?: string;
  type?: string;
}

const DIGITS = /^\d{1,15}$/;

/**
 * The list query (wrapped: a query builder is a thenable, which an async function would run);
 * throws 404 for an unknown author or project, as 10.8's `find` did.
 */
export async function todosQuery(db: Conn, user: UserRow, f: TodoFilters): Promise<{ query: Knex.QueryBuilder }> {
  const q = db('todos as t').join('projects as p', 'p.id', 't.project_id').select('t.*').where('t.user_id', user.id);
  const actionIds = Object.values(TODO_ACTIONS) as number[];
  if (f.actionId !== undefined && DIGITS.test(f.actionId) && actionIds.includes(Number(f.actionId))) q.where('t.action', Number(f.actionId));
  if (f.action !== undefined && f.action in TODO_ACTIONS) q.where('t.action', TODO_ACTIONS[f.action as TodoAction]);
  if (f.authorId !== undefined && f.authorId !== '') {
    if (f.authorId === '0') q.whereNull('t.author_id');
    else {
      const author = DIGITS.test(f.authorId) ? await db('users').where({ id: Number(f.authorId) }).first('id') : undefined;
      if (!author) throw new RecordNotFound();
      q.where('t.author_id', author.id);
    }
  }
  q.where('t.state', f.state === 'done' ? 'done' : 'pending');
  if (f.type === 'Issue' || f.type === 'MergeRequest') q.where('t.target_type', f.type);
  if (f.projectId !== undefined && f.projectId !== '') {
    const project = DIGITS.test(f.projectId) ? await db('projects').where({ id: Number(f.projectId) }).first('id') : undefined;
    if (!project) throw new RecordNotFound();
    q.where('t.project_id', project.id);
  }
  whereReadableTodos(q, db, user, 't', 'p');
  return { query: q.orderBy('t.id', 'desc') };
}

export async function findTodo(db: Conn, user: UserRow, id: number): Promise<TodoRow | undefined> {
  return db('todos').where({ id, user_id: user.id }).first();
}
