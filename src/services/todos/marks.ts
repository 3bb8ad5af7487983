// The to-do writes of GitLab 10.8's lib/api/todos.rb, each in a transaction of its own: a
// user marks a target (`POST .../todo`), marks one of their to-dos done, or every pending
// to-do of a filtered list (`POST /todos/mark_as_done`). The caller has checked that the
// user may read the target.
import type { Db } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { todosQuery, type TodoFilters } from '../../finders/todos.js';
import { markTodo, markUserTodosDone, type TodoTarget } from './todos.js';

/** The new `marked` to-do's id, or null when the user already has a pending one on the target. */
export async function markTarget(db: Db, user: UserRow, target: TodoTarget): Promise<number | null> {
  return db.transaction((tx) => markTodo(tx, user, target));
}

/** Marks the user's to-do done (another user's, or an unknown id, is left alone). */
export async function markOneDone(db: Db, user: UserRow, id: number): Promise<void> {
  await db.transaction((tx) => markUserTodosDone(tx, user.id, [id]));
}

/** Marks every pending to-do of the user's list (those filters) done. */
export async function markListedDone(db: Db, user: UserRow, filters: TodoFilters): Promise<void> {
  const { query } = await todosQuery(db, user, filters);
  const ids = (await query.clearSelect().clearOrder().select('t.id')).map((r: { id: number }) => r.id);
  if (ids.length) await db.transaction((tx) => markUserTodosDone(tx, user.id, ids));
}
