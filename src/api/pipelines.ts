// GitLab 10.8's lib/api/pipelines.rb and the job lists of lib/api/jobs.rb: list (every filter),
// create (`ref`; 400 `{"message":{"base":[…]}}`), single pipeline, and a project's or a
// pipeline's jobs by `scope[]`, pipeline retry and cancel. One job, its trace, retry, cancel,
// play and artifacts are in jobs.ts. Retry asks update_pipeline of the pipeline itself once it
// is found (Ci::PipelinePolicy: 403 for a protected ref the user may not update, raised by
// 10.8's RetryPipelineService); cancel asks only the project's, as 10.8's cancel_running.
import { forbidden, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { Deps } from '../deps.js';
import { can } from '../policy/can.js';
import { ciRefFacts } from '../policy/ci_refs.js';
import { gitdirOf } from '../finders/projects.js';
import { usersById } from '../finders/users.js';
import { buildsQuery, findPipeline, JOB_SCOPES, latestCoverages, PIPELINE_ORDERS, PIPELINE_SCOPES, pipelinesById, pipelinesQuery } from '../finders/pipelines.js';
import { RepoReader, type CommitInfo } from '../git/reader.js';
import { jobEntity, pipelineBasic, pipelineCoverage, pipelineEntity } from '../entities/pipeline.js';
import { createPipeline } from '../services/ci/create_pipeline.js';
import { cancelPipeline, retryPipeline } from '../services/ci/pipeline_actions.js';
import { Invalid } from '../store/domain_errors.js';
import { CI_STATUSES } from '../store/ci_statuses.js';
import type { BuildRow, PipelineRow } from '../store/ci_rows.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { route, type Route } from './core/route.js';

async function presentPipeline(deps: Deps, row: PipelineRow) {
  const users = await usersById(deps.db, [row.user_id]);
  // Computed as 10.8 does on each read, external statuses' coverage included.
  const coverage = pipelineCoverage(await latestCoverages(deps.db, row.id));
  return pipelineEntity({ ...row, coverage }, users.get(row.user_id ?? -1), deps.urls);
}

export async function presentJobs(deps: Deps, project: ProjectWithNamespace, builds: BuildRow[]) {
  const users = await usersById(
    deps.db,
    builds.map((b) => b.user_id),
  );
  const pipelineIds = [...new Set(builds.map((b) => b.pipeline_id))];
  const pipelines = await pipelinesById(deps.db, pipelineIds);
  const byId = new Map(pipelines.map((x) => [x.id, x]));
  const reader = new RepoReader(gitdirOf(deps.repos, project));
  const commits = new Map<string, CommitInfo | undefined>();
  for (const x of pipelines) if (!commits.has(x.sha)) commits.set(x.sha, await reader.commit(x.sha).catch(() => undefined));
  return builds.map((b) => {
    const pipeline = byId.get(b.pipeline_id)!;
    return jobEntity(b, { user: users.get(b.user_id ?? -1), commit: commits.get(pipeline.sha), pipeline }, deps.urls);
  });
}

const pipelineId = { pipeline_id: p.integer().required() };

export const pipelineRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/pipelines',
    auth: 'user', // lib/api/pipelines.rb and jobs.rb: authenticate! first
    load: 'project',
    ability: 'read_pipeline',
    params: {
      scope: p.string().values(PIPELINE_SCOPES),
      status: p.string().values(CI_STATUSES),
      ref: p.string(),
      sha: p.string(),
      yaml_errors: p.boolean(),
      name: p.string(),
      username: p.string(),
      order_by: p.string().values(PIPELINE_ORDERS),
      sort: p.string().values(['asc', 'desc']),
    },
    summary: 'Get all Pipelines of the project',
    handler: async ({ ctx, deps, project, params }) => {
      const rows = await paginate<PipelineRow>(ctx, deps.db, pipelinesQuery(deps.db, project.id, params));
      return rows.map(pipelineBasic);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipeline',
    auth: 'user',
    load: 'project',
    ability: 'create_pipeline',
    params: { ref: p.string().required() },
    status: 201,
    summary: 'Create a new pipeline',
    handler: async ({ deps, project, user, params }) => {
      const reader = new RepoReader(gitdirOf(deps.repos, project));
      const isBranch = (await reader.branches()).includes(params.ref);
      const isTag = !isBranch && (await reader.tags()).includes(params.ref);
      if (!isBranch && !isTag) throw new Invalid({ base: ['Reference not found'] });
      const sha = await reader.resolveCommit(isTag ? `refs/tags/${params.ref}` : `refs/heads/${params.ref}`);
      if (!sha) throw new Invalid({ base: ['Commit not found'] });
      const row = await createPipeline(deps, project, user, { ref: params.ref, tag: isTag, sha, beforeSha: null, source: 'api', saveOnErrors: false });
      return presentPipeline(deps, row!);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id',
    auth: 'user', // lib/api/pipelines.rb and jobs.rb: authenticate! first
    load: 'project',
    ability: 'read_pipeline',
    params: pipelineId,
    summary: 'Get a specific pipeline',
    handler: async ({ deps, project, params }) => {
      const row = await findPipeline(deps.db, project.id, params.pipeline_id);
      if (!row) throw recordNotFound();
      return presentPipeline(deps, row);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipelines/:pipeline_id/retry',
    auth: 'user',
    load: 'project',
    ability: 'update_pipeline',
    params: pipelineId,
    status: 201,
    summary: 'Retry failed builds in the pipeline',
    handler: async ({ deps, project, access, user, params }) => {
      const row = await findPipeline(deps.db, project.id, params.pipeline_id);
      if (!row) throw recordNotFound();
      if (!can(user, { kind: 'pipeline', ...(await ciRefFacts(deps.db, project, access, row)) }, 'update_pipeline')) throw forbidden();
      await retryPipeline(deps, row.id, user.id);
      return presentPipeline(deps, (await findPipeline(deps.db, project.id, row.id))!);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipelines/:pipeline_id/cancel',
    auth: 'user',
    load: 'project',
    ability: 'update_pipeline',
    params: pipelineId,
    status: 200,
    summary: 'Cancel all builds in the pipeline',
    handler: async ({ deps, project, params }) => {
      const row = await findPipeline(deps.db, project.id, params.pipeline_id);
      if (!row) throw recordNotFound();
      await cancelPipeline(deps, row.id);
      return presentPipeline(deps, (await findPipeline(deps.db, project.id, row.id))!);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id/jobs',
    auth: 'user', // lib/api/pipelines.rb and jobs.rb: authenticate! first
    load: 'project',
    ability: 'read_build',
    params: { ...pipelineId, scope: p.array(p.string().values(JOB_SCOPES)) },
    summary: 'Get pipeline jobs',
    handler: async ({ ctx, deps, project, params }) => {
      const row = await findPipeline(deps.db, project.id, params.pipeline_id);
      if (!row) throw recordNotFound();
      const builds = await paginate<BuildRow>(ctx, deps.db, buildsQuery(deps.db, project.id, { pipelineId: row.id, scope: params.scope }));
      return presentJobs(deps, project, builds);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs',
    auth: 'user', // lib/api/pipelines.rb and jobs.rb: authenticate! first
    load: 'project',
    ability: 'read_build',
    params: { scope: p.array(p.string().values(JOB_SCOPES)) },
    summary: 'Get a projects jobs',
    handler: async ({ ctx, deps, project, params }) => {
      const builds = await paginate<BuildRow>(ctx, deps.db, buildsQuery(deps.db, project.id, { scope: params.scope }));
      return presentJobs(deps, project, builds);
    },
  }),
];
