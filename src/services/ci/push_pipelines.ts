// Pipelines for a push (GitLab 10.8's GitPushService / GitTagPushService → CreatePipelineService
// with source `push`): one per created or moved branch or tag, queued as a durable job
// (queue pipeline_creation) when the refs move, so a crash between the push and the pipeline
// loses nothing; deleted refs get none.
import type { Deps } from '../../deps.js';
import { findProjectByIdOrPath, gitdirOf } from '../../finders/projects.js';
import { RepoReader } from '../../git/reader.js';
import type { Conn } from '../../store/db.js';
import { enqueueJob } from '../../store/job_queue.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { PushedRef } from '../push/pushed_ref.js';
import { createPipeline } from './create_pipeline.js';
import { findUserById } from '../../finders/users.js';

export const CREATE_PUSH_PIPELINES_JOB = 'ci_create_push_pipelines';

export interface PushPipelinesPayload {
  projectId: number;
  userId: number;
  updates: PushedRef[];
}

const blank = (oid: string) => !oid || /^0+$/.test(oid);

/** Queues the pipelines of a push (call where the refs' move is recorded). */
export async function queuePushPipelines(db: Conn, payload: PushPipelinesPayload): Promise<void> {
  const moved = payload.updates.filter((u) => !blank(u.newOid) && (u.ref.startsWith('refs/heads/') || u.ref.startsWith('refs/tags/')));
  if (moved.length === 0) return;
  await enqueueJob(db, CREATE_PUSH_PIPELINES_JOB, { ...payload, updates: moved }, { queue: 'pipeline_creation' });
}

/** The job: one pipeline per moved ref, skipping refs that already have one for that sha. */
export async function createPushPipelines(deps: Deps, payload: PushPipelinesPayload): Promise<void> {
  const project = await findProjectByIdOrPath(deps.db, String(payload.projectId));
  if (!project || !project.jobs_enabled) return;
  const user: UserRow | null = (await findUserById(deps.db, payload.userId)) ?? null;
  for (const u of payload.updates) {
    const tag = u.ref.startsWith('refs/tags/');
    const ref = u.ref.slice(tag ? 'refs/tags/'.length : 'refs/heads/'.length);
    const sha = tag ? await peeled(deps, project, u.newOid) : u.newOid;
    const exists = await deps.db('ci_pipelines').where({ project_id: project.id, ref, sha, source: 'push' }).first();
    if (exists || !sha) continue; // a retried job must not double a pipeline
    await createPipeline(deps, project, user, {
      ref,
      tag,
      sha,
      beforeSha: blank(u.oldOid) ? '0000000000000000000000000000000000000000' : u.oldOid,
      source: 'push',
      saveOnErrors: true,
    });
  }
}

async function peeled(deps: Deps, project: ProjectWithNamespace, oid: string): Promise<string> {
  return (await new RepoReader(gitdirOf(deps.repos, project)).resolveCommit(oid)) ?? oid;
}
