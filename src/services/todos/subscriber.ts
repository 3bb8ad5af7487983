// The to-do subscriber (GitLab 10.8's TodoService, which each service there called): which
// announcements create to-dos or mark the actor's pending ones done. The rules (one pending
// to-do per user and target, readers only, never for the actor) are todos.ts's; the
// build_failed ones todos/build_failed.ts's.
import type { Conn } from '../../store/db.js';
import type { DomainEvent } from '../domain_events.js';
import { markTodosDone, todosOnIssuableCreated, todosOnIssuableUpdated, todosOnNote } from './todos.js';
import { buildFailedTodos, closeTodosOnJobRetry, closeTodosOnPipelineRetry } from './build_failed.js';

export async function todoWriter(tx: Conn, e: DomainEvent): Promise<void> {
  switch (e.name) {
    case 'issuableOpened':
      await todosOnIssuableCreated(tx, e.actor, e.target, { assigneeIds: e.assigneeIds, title: e.title, description: e.description });
      return;
    case 'issuableChanged':
      if (e.state === 'closed') await markTodosDone(tx, e.actor.id, e.target);
      await todosOnIssuableUpdated(tx, e.actor, e.target, { ...e.edit, changed: e.touched });
      return;
    case 'issueMoved':
      if (e.closed) await markTodosDone(tx, e.actor.id, e.from);
      return;
    case 'mergeRequestMerged': {
      const mr = e.mergeRequest;
      await markTodosDone(tx, e.actor.id, { type: 'MergeRequest', id: mr.id, projectId: mr.target_project_id });
      return;
    }
    case 'issuableTouched':
      await markTodosDone(tx, e.actorId, e.target);
      return;
    case 'noteAdded':
      if (e.onIssuable) await todosOnNote(tx, e.actor, e.onIssuable, { id: e.noteId, body: e.body });
      return;
    case 'noteEdited':
      if (e.onIssuable) await todosOnNote(tx, e.actor, e.onIssuable, { id: e.noteId, body: e.body, oldBody: e.oldBody });
      return;
    case 'jobStatusChanged':
      if (e.build.status === 'failed') await buildFailedTodos(tx, e.build);
      return;
    case 'jobRetried':
      await closeTodosOnJobRetry(tx, e.build);
      return;
    case 'pipelineRetried':
      await closeTodosOnPipelineRetry(tx, e.pipeline);
      return;
    default:
      return;
  }
}
