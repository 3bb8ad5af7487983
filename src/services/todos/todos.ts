// To-dos created by the services of issues, merge requests and notes (GitLab 10.8's
// TodoService). Every function runs inside the caller's transaction. Callers call them at the
// points named below and need not know the rules:
// - at most one pending to-do per user and target, whatever its action (a second reason to
//   ping the same user about the same thing is skipped: an assignee also mentioned gets only
//   `assigned`);
// - never a to-do for a user who cannot read the target (src/policy/todos.ts);
// - never a to-do for the actor (Wharf's rule, beyond 10.8, which pinged self-assignees and
//   self-mentions) — except `marked`, which is the actor's own;
// - directly addressed users (leading mentions of a paragraph) first, then the other mentions;
// - the actor's pending to-dos on a target become done when they close, merge, comment on,
//   award or edit it.
import type { Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { TODO_ACTIONS, type TodoAction, type TodoTargetType } from '../../store/todo_actions.js';
import { findProjectByIdOrPath } from '../../finders/projects.js';
import { todoReaders, type TodoTargetFacts } from '../../policy/todos.js';
import { extractMentions, extractTitleMentions, mergeMentions, resolveMentions, type Mentions } from '../../finders/mentions.js';

export interface TodoTarget {
  type: TodoTargetType;
  id: number;
  projectId: number;
}

interface Loaded {
  project: ProjectWithNamespace;
  facts: TodoTargetFacts;
}

async function load(tx: Conn, target: TodoTarget): Promise<Loaded | null> {
  const project = await findProjectByIdOrPath(tx, String(target.projectId));
  if (!project) return null;
  if (target.type === 'Issue') {
    const issue = await tx('issues').where({ id: target.id }).first('confidential', 'author_id');
    if (!issue) return null;
    const assignees: { user_id: number }[] = await tx('issue_assignees').where({ issue_id: target.id }).select('user_id');
    return { project, facts: { type: 'Issue', confidential: issue.confidential, author_id: issue.author_id, assigneeIds: assignees.map((a) => a.user_id) } };
  }
  const mr = await tx('merge_requests').where({ id: target.id }).first('author_id', 'assignee_id');
  if (!mr) return null;
  return { project, facts: { type: 'MergeRequest', author_id: mr.author_id, assignee_id: mr.assignee_id } };
}

function pending(tx: Conn, userId: number, target: TodoTarget) {
  return tx('todos').where({ user_id: userId, project_id: target.projectId, target_type: target.type, target_id: target.id, state: 'pending' });
}

/**
 * Creates a pending to-do of `action` for each user who may read the target and has none
 * pending on it yet. Returns the ids of the new to-dos.
 */
async function createTodos(tx: Conn, loaded: Loaded, actor: UserRow, target: TodoTarget, userIds: number[], action: TodoAction, noteId: number | null = null): Promise<number[]> {
  const readers = await todoReaders(tx, loaded.project, loaded.facts, [...new Set(userIds)]);
  const created: number[] = [];
  for (const userId of readers) {
    if (await pending(tx, userId, target).first('id')) continue;
    const stamp = now();
    const id = await insertReturningId(tx, 'todos', {
      user_id: userId,
      project_id: target.projectId,
      author_id: actor.id,
      target_type: target.type,
      target_id: target.id,
      note_id: noteId,
      action: TODO_ACTIONS[action],
      state: 'pending',
      created_at: stamp,
      updated_at: stamp,
    });
    created.push(id);
  }
  return created;
}

/** Directly addressed users first, then the other mentioned ones; never the actor or `skip`. */
async function mentionTodos(tx: Conn, loaded: Loaded, actor: UserRow, target: TodoTarget, mentions: Mentions, skip: Set<number>, noteId: number | null = null) {
  const keep = (ids: number[]) => ids.filter((id) => id !== actor.id && !skip.has(id));
  const direct = keep(await resolveMentions(tx, loaded.project, actor, mentions.direct));
  await createTodos(tx, loaded, actor, target, direct, 'directly_addressed', noteId);
  const all = keep(await resolveMentions(tx, loaded.project, actor, mentions.names));
  await createTodos(tx, loaded, actor, target, all, 'mentioned', noteId);
}

function issuableMentions(title: string | null, description: string | null): Mentions {
  return mergeMentions(extractTitleMentions(title), extractMentions(description));
}

/** A new issue or merge request: `assigned` for its assignees, mentions in title and description. */
export async function todosOnIssuableCreated(
  tx: Conn,
  actor: UserRow,
  target: TodoTarget,
  change: { assigneeIds: number[]; title: string; description: string | null },
): Promise<void> {
  const assignees = change.assigneeIds.filter((id) => id !== actor.id);
  const mentions = issuableMentions(change.title, change.description);
  if (!assignees.length && !mentions.names.length) return; // the common case: nothing to load
  const loaded = await load(tx, target);
  if (!loaded) return;
  await createTodos(tx, loaded, actor, target, assignees, 'assigned');
  await mentionTodos(tx, loaded, actor, target, mentions, new Set());
}

/**
 * An edit: `assigned` for assignees added, mentions added to title or description; when
 * anything changed, the actor's pending todos on the target are done.
 */
export async function todosOnIssuableUpdated(
  tx: Conn,
  actor: UserRow,
  target: TodoTarget,
  change: {
    addedAssigneeIds: number[];
    oldTitle: string;
    oldDescription: string | null;
    title: string;
    description: string | null;
    changed: boolean;
  },
): Promise<void> {
  if (change.changed) await markTodosDone(tx, actor.id, target);
  const textChanged = change.title !== change.oldTitle || change.description !== change.oldDescription;
  const mentions = textChanged ? issuableMentions(change.title, change.description) : null;
  const assignees = change.addedAssigneeIds.filter((id) => id !== actor.id);
  if (!assignees.length && !mentions?.names.length) return;
  const loaded = await load(tx, target);
  if (!loaded) return;
  if (mentions) {
    // Users mentioned before the edit were pinged then (or chose not to be): skipped.
    const before = await resolveMentions(tx, loaded.project, actor, issuableMentions(change.oldTitle, change.oldDescription).names);
    await mentionTodos(tx, loaded, actor, target, mentions, new Set(before));
  }
  await createTodos(tx, loaded, actor, target, assignees, 'assigned');
}

/**
 * A new (oldBody undefined) or edited non-system note on the target: mentions in it (on an
 * edit, only those added); the actor's todos on the target are done (GitLab does so for an
 * edit too).
 */
export async function todosOnNote(tx: Conn, actor: UserRow, target: TodoTarget, note: { id: number; body: string; oldBody?: string }): Promise<void> {
  await markTodosDone(tx, actor.id, target);
  const mentions = extractMentions(note.body);
  if (!mentions.names.length) return;
  const loaded = await load(tx, target);
  if (!loaded) return;
  const before = note.oldBody === undefined ? [] : await resolveMentions(tx, loaded.project, actor, extractMentions(note.oldBody).names);
  await mentionTodos(tx, loaded, actor, target, mentions, new Set(before), note.id);
}

/** The actor acted on the target (award emoji, push to an MR's source branch): their todos done. */
export async function markTodosDone(tx: Conn, userId: number, target: TodoTarget): Promise<void> {
  await pending(tx, userId, target).update({ state: 'done', updated_at: now() });
}

/**
 * `POST .../todo`: a `marked` to-do for the user on a target they can read (the caller has
 * checked). Null when they already have a pending one on it (the API answers 304).
 */
export async function markTodo(tx: Conn, user: UserRow, target: TodoTarget): Promise<number | null> {
  if (await pending(tx, user.id, target).first('id')) return null;
  const stamp = now();
  const id = await insertReturningId(tx, 'todos', {
    user_id: user.id,
    project_id: target.projectId,
    author_id: user.id,
    target_type: target.type,
    target_id: target.id,
    note_id: null,
    action: TODO_ACTIONS.marked,
    state: 'pending',
    created_at: stamp,
    updated_at: stamp,
  });
  return id;
}

/** Marks the user's pending to-dos among `ids` (all of them when `ids` is undefined) done. */
export async function markUserTodosDone(tx: Conn, userId: number, ids?: number[]): Promise<number> {
  const q = tx('todos').where({ user_id: userId, state: 'pending' });
  if (ids) q.whereIn('id', ids);
  return q.update({ state: 'done', updated_at: now() });
}
