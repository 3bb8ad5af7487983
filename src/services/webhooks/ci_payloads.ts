// The JSON of pipeline and job webhooks, in GitLab 10.8's shapes: Gitlab::DataBuilder::Pipeline
// (object_attributes with detailed_status and stages, the pipeline's user, the project without
// its backward-compatible keys, the commit, every job of the pipeline) and
// Gitlab::DataBuilder::Build (the flat build_* keys, the job's user as id/name/email, the
// pipeline as `commit`, the old `repository` block). Built when the delivery is sent, from the
// rows snapshotted in the transaction of the status change (project_subscriber.ts); the users and
// the commit are read then.
import type { Deps } from '../../deps.js';
import { flag, type ProjectWithNamespace, type UserRow } from '../../store/rows.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import { fullPathOf, gitdirOf } from '../../finders/projects.js';
import { usersById, findUserById } from '../../finders/users.js';
import { RepoReader } from '../../git/reader.js';
import { commitHookAttrs, projectHookAttrs, userHookAttrs, type Json } from './attrs.js';
import type { JobHookEvent, PipelineHookEvent } from './triggers.js';

/** Gitlab::Ci::Status labels of a pipeline (SuccessWarning and Pipeline::Blocked first). */
function detailedStatus(status: string, warnings: boolean): string {
  if (status === 'success') return warnings ? 'passed with warnings' : 'passed';
  if (status === 'manual') return 'waiting for manual action';
  return status;
}

/** Ci::Build#duration: seconds from start to finish, or to now while running. */
function jobDuration(b: BuildRow): number | null {
  if (!b.started_at) return null;
  return ((b.finished_at ? Date.parse(b.finished_at) : Date.now()) - Date.parse(b.started_at)) / 1000;
}

function artifactsFile(b: BuildRow): Json {
  return { filename: b.artifacts_file ? b.artifacts_file.split('/').pop() : null, size: b.artifacts_size ?? null };
}

export async function pipelineHookBody(deps: Deps, project: ProjectWithNamespace, event: PipelineHookEvent): Promise<Json> {
  const { pipeline, builds } = event;
  const users = await usersById(deps.db, [pipeline.user_id, ...builds.map((b) => b.user_id)]);
  const userOf = (id: number | null) => (id === null || !users.has(id) ? null : userHookAttrs(users.get(id)));
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      ref: pipeline.ref,
      tag: flag(pipeline.tag),
      sha: pipeline.sha,
      before_sha: pipeline.before_sha,
      status: pipeline.status,
      detailed_status: detailedStatus(pipeline.status, event.warnings),
      stages: event.stages,
      created_at: pipeline.created_at,
      finished_at: pipeline.finished_at,
      duration: pipeline.duration,
    },
    user: userOf(pipeline.user_id),
    project: projectHookAttrs(deps, project, false),
    commit: await commitHookAttrs(deps, project, pipeline.sha),
    builds: builds.map((b) => ({
      id: b.id,
      stage: b.stage,
      name: b.name,
      status: b.status,
      created_at: b.created_at,
      started_at: b.started_at,
      finished_at: b.finished_at,
      when: b.when,
      manual: b.when === 'manual',
      user: userOf(b.user_id),
      runner: null,
      artifacts_file: artifactsFile(b),
    })),
  };
}

/** The pipeline as Build's data builder shows it (`commit`), with the author's profile URL or a mailto. */
async function pipelineAsCommit(deps: Deps, project: ProjectWithNamespace, pipeline: PipelineRow | undefined): Promise<Json> {
  if (!pipeline) return {};
  const commit = await new RepoReader(gitdirOf(deps.repos, project)).commit(pipeline.sha).catch(() => null);
  const email = commit?.author.email ?? null;
  const author: UserRow | undefined = email ? await deps.db('users').whereRaw('lower(email) = ?', [email.toLowerCase()]).first() : undefined;
  return {
    id: pipeline.id,
    sha: pipeline.sha,
    message: commit?.message ?? null,
    author_name: commit?.author.name ?? null,
    author_email: email,
    author_url: author ? deps.urls.user(author.username) : `mailto:${email ?? ''}`,
    status: pipeline.status,
    duration: pipeline.duration,
    started_at: pipeline.started_at,
    finished_at: pipeline.finished_at,
  };
}

export async function jobHookBody(deps: Deps, project: ProjectWithNamespace, event: JobHookEvent): Promise<Json> {
  const { build } = event;
  const pipeline: PipelineRow | undefined = await deps.db('ci_pipelines').where({ id: build.pipeline_id }).first();
  const user: UserRow | undefined = build.user_id === null ? undefined : await findUserById(deps.db, build.user_id);
  const path = fullPathOf(project);
  return {
    object_kind: 'build',
    ref: build.ref,
    tag: flag(build.tag),
    before_sha: pipeline?.before_sha ?? null,
    sha: pipeline?.sha ?? null,
    build_id: build.id,
    build_name: build.name,
    build_stage: build.stage,
    build_status: build.status,
    build_started_at: build.started_at,
    build_finished_at: build.finished_at,
    build_duration: jobDuration(build),
    build_allow_failure: flag(build.allow_failure),
    project_id: project.id,
    project_name: `${project.namespace.full_name} / ${project.name}`,
    user: { id: user?.id ?? null, name: user?.name ?? null, email: user?.email ?? null },
    commit: await pipelineAsCommit(deps, project, pipeline),
    repository: {
      name: project.name,
      url: deps.urls.sshRepo(path),
      description: project.description,
      homepage: deps.urls.web(path),
      git_http_url: deps.urls.httpRepo(path),
      git_ssh_url: deps.urls.sshRepo(path),
      visibility_level: project.visibility_level,
    },
  };
}
