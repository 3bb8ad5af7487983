// What follows a CI status change, in the transaction that made it, as GitLab 10.8's state
// machine callbacks: a job event to the project's `job_hooks` when a Ci::Build is created and
// when it starts running or finishes (success, failed, canceled), but not for external
// statuses (BuildHooksWorker reads Ci::Build only); a `build_failed` to-do when a job or
// status fails; and when a pipeline's status changes, a pipeline event to its
// `pipeline_hooks` and the merge of the merge requests waiting for it
// (merge_when_pipeline_succeeds). Every place that creates a job calls onBuildCreated
// (onBuildsCreated for a pipeline's many), every place that changes a job's status
// onBuildStatusChange; updatePipelineStatus calls onPipelineStatusChange; the retries call
// onJobRetried / onPipelineRetried.
import type { Conn } from '../../store/db.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import type { CiStatus } from '../../store/ci_statuses.js';
import { enqueueProjectHooks, enqueueProjectHooksEach } from '../webhooks/triggers.js';
import { enqueueMergeOnPipelineSuccess } from '../merge_requests/merge_on_success.js';
import { buildFailedTodos, closeTodosOnJobRetry, closeTodosOnPipelineRetry } from './build_failed_todos.js';

const JOB_HOOK_STATUSES: readonly CiStatus[] = ['success', 'failed', 'canceled'];
const isJob = (b: BuildRow) => b.type === undefined || b.type === null || b.type === 'Ci::Build';

async function enqueueJobHook(db: Conn, build: BuildRow): Promise<void> {
  await enqueueProjectHooks(db, build.project_id, 'job_hooks', { kind: 'build', projectId: build.project_id, build });
}

/** After a job row was inserted (a retry's clone, an external status). */
export async function onBuildCreated(db: Conn, build: BuildRow): Promise<void> {
  if (isJob(build)) await enqueueJobHook(db, build);
}

/** After job rows of one pipeline were inserted: reads the project's job hooks once for all. */
export async function onBuildsCreated(db: Conn, builds: BuildRow[]): Promise<void> {
  const jobs = builds.filter(isJob);
  if (!jobs.length) return;
  const events = jobs.map((build) => ({ kind: 'build' as const, projectId: build.project_id, build }));
  await enqueueProjectHooksEach(db, jobs[0].project_id, 'job_hooks', events);
}

/** After a job's status changed from `from` to `build.status`. */
export async function onBuildStatusChange(db: Conn, build: BuildRow, from: CiStatus): Promise<void> {
  const started = from === 'pending' && build.status === 'running';
  if (isJob(build) && (started || JOB_HOOK_STATUSES.includes(build.status))) await enqueueJobHook(db, build);
  if (build.status === 'failed') await buildFailedTodos(db, build);
}

/** After a pipeline's status changed from `from` to `pipeline.status`. */
export async function onPipelineStatusChange(db: Conn, pipeline: PipelineRow, from: CiStatus): Promise<void> {
  await enqueueProjectHooks(db, pipeline.project_id, 'pipeline_hooks', async () => {
    const statuses: BuildRow[] = await db('ci_builds').where({ pipeline_id: pipeline.id }).orderBy('id');
    const stages = [...new Map([...statuses].sort((a, b) => a.stage_idx - b.stage_idx).map((s) => [s.stage, s.stage])).keys()];
    const builds = statuses.filter(isJob);
    const warnings = builds.some((b) => !b.retried && b.status === 'failed' && !!b.allow_failure);
    return { kind: 'pipeline', projectId: pipeline.project_id, pipeline, builds, stages, warnings };
  });
  await enqueueMergeOnPipelineSuccess(db, pipeline, from);
}

/** After a job was retried; `build` is its new clone. */
export async function onJobRetried(db: Conn, build: BuildRow): Promise<void> {
  await onBuildCreated(db, build);
  await closeTodosOnJobRetry(db, build);
}

/** After a pipeline's failed and canceled jobs were retried. */
export async function onPipelineRetried(db: Conn, pipeline: PipelineRow): Promise<void> {
  await closeTodosOnPipelineRetry(db, pipeline);
}
