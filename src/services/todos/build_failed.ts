// GitLab 10.8's build_failed to-dos (MergeRequests::AddTodoWhenBuildFailsService and
// TodoService#merge_request_build_failed / #merge_request_build_retried): when a job or an
// external status fails (neither allowed to fail nor retried), the author of each open merge
// request whose head is the job's commit on its branch gets a `build_failed` to-do, and so does
// its merge user while it waits to merge when the pipeline succeeds. A retried job or pipeline
// marks those people's pending to-dos on the merge requests done. As every Wharf to-do, none is
// added while the user has one pending on the merge request (todos.ts).
import type { Conn } from '../../store/db.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { TODO_ACTIONS } from '../../store/todo_actions.js';
import { now } from '../../store/time.js';
import { flag } from '../../store/rows.js';
import { openMergeRequestsAtCommit } from '../../finders/merge_request_pipelines.js';

/** The author, and the merge user while merge_when_pipeline_succeeds is set. */
function peopleOf(mr: MergeRequestRow): number[] {
  const ids = [mr.author_id];
  if (flag(mr.merge_when_pipeline_succeeds)) ids.push(mr.merge_user_id);
  return [...new Set(ids.filter((id): id is number => id !== null))];
}

function pendingOn(db: Conn, userId: number, mr: MergeRequestRow) {
  return db('todos').where({ user_id: userId, target_type: 'MergeRequest', target_id: mr.id, state: 'pending' });
}

async function pipelineOf(db: Conn, build: BuildRow): Promise<PipelineRow | undefined> {
  return db('ci_pipelines').where({ id: build.pipeline_id }).first();
}

/** After `build` moved to failed. */
export async function buildFailedTodos(db: Conn, build: BuildRow): Promise<void> {
  if (flag(build.allow_failure) || flag(build.retried)) return;
  const pipeline = await pipelineOf(db, build);
  if (!pipeline) return;
  for (const mr of await openMergeRequestsAtCommit(db, { ...pipeline, ref: build.ref })) {
    for (const userId of peopleOf(mr)) {
      if (await pendingOn(db, userId, mr).first('id')) continue;
      const stamp = now();
      await db('todos').insert({
        user_id: userId,
        project_id: mr.target_project_id,
        author_id: userId,
        target_type: 'MergeRequest',
        target_id: mr.id,
        note_id: null,
        action: TODO_ACTIONS.build_failed,
        state: 'pending',
        created_at: stamp,
        updated_at: stamp,
      });
    }
  }
}

async function markDone(db: Conn, mrs: MergeRequestRow[]): Promise<void> {
  for (const mr of mrs) {
    for (const userId of peopleOf(mr)) await pendingOn(db, userId, mr).update({ state: 'done', updated_at: now() });
  }
}

/** After a job was retried (`build` is the new one): AddTodoWhenBuildFailsService#close. */
export async function closeTodosOnJobRetry(db: Conn, build: BuildRow): Promise<void> {
  const pipeline = await pipelineOf(db, build);
  if (pipeline) await markDone(db, await openMergeRequestsAtCommit(db, { ...pipeline, ref: build.ref }));
}

/** After a pipeline was retried: AddTodoWhenBuildFailsService#close_all. */
export async function closeTodosOnPipelineRetry(db: Conn, pipeline: PipelineRow): Promise<void> {
  await markDone(db, await openMergeRequestsAtCommit(db, pipeline, true));
}
