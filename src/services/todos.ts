// PLACEHOLDER CONTRACT (issue #6 helper implements the bodies): to-dos created by the
// services of issues, merge requests and notes (GitLab 10.8's TodoService). Every function
// runs inside the caller's transaction. Callers call them at the points named below and
// need not know the rules (readability, one pending todo per user and target, mentions).
import type { Tx } from '../store/db.js';
import type { UserRow } from '../store/rows.js';

export type TodoTargetType = 'Issue' | 'MergeRequest';

export interface TodoTarget {
  type: TodoTargetType;
  id: number;
  projectId: number;
}

/** A new issue or merge request: `assigned` for its assignees, mentions in title and description. */
export async function todosOnIssuableCreated(
  _tx: Tx,
  _actor: UserRow,
  _target: TodoTarget,
  _change: { assigneeIds: number[]; title: string; description: string | null },
): Promise<void> {}

/**
 * An edit: `assigned` for assignees added, mentions added to title or description; when
 * anything changed, the actor's pending todos on the target are done.
 */
export async function todosOnIssuableUpdated(
  _tx: Tx,
  _actor: UserRow,
  _target: TodoTarget,
  _change: {
    addedAssigneeIds: number[];
    oldTitle: string;
    oldDescription: string | null;
    title: string;
    description: string | null;
    changed: boolean;
  },
): Promise<void> {}

/** Closed or merged by the actor: the actor's pending todos on it are done. */
export async function todosOnIssuableClosed(_tx: Tx, _actor: UserRow, _target: TodoTarget): Promise<void> {}

/**
 * A new (oldBody undefined) or edited non-system note on the target: mentions in it
 * (on an edit, only those added); a new note marks the actor's todos on the target done.
 */
export async function todosOnNote(
  _tx: Tx,
  _actor: UserRow,
  _target: TodoTarget,
  _note: { id: number; body: string; oldBody?: string },
): Promise<void> {}

/** The actor acted on the target (award emoji, push to an MR's source branch): their todos done. */
export async function markTodosDone(_tx: Tx, _userId: number, _target: TodoTarget): Promise<void> {}
