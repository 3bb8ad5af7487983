// GitLab 10.8's lib/api/jobs.rb (one job, its trace, cancel, retry, play) and
// lib/api/job_artifacts.rb (the artifacts archive of a job, and of the latest successful
// pipeline of a ref). A job here is a Ci::Build (not an external commit status), as
// `user_project.builds` finds them; a missing one is 404 `{"message":"404 Not found"}`.
// Cancel, retry and play ask update_build of the job itself once it is found (Ci::BuildPolicy:
// 403 for a protected ref the user may not update); play asks only read_build of the project
// before that, as 10.8 does.
import fs from 'node:fs';
import { badRequest, forbidden, notFound, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import type { Deps } from '../deps.js';
import { can } from '../policy/can.js';
import { ciRefFacts } from '../policy/ci_refs.js';
import { cancelJob, playJob, retryable, playable, retryJob } from '../services/ci/pipeline_actions.js';
import { findJob, latestSuccessfulJob } from '../finders/pipelines.js';
import { artifactsFile, traceFile } from '../services/ci/runner/storage.js';
import { readTrace } from '../services/ci/runner/trace.js';
import type { BuildRow } from '../store/ci_rows.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { presentJobs } from './pipelines.js';
import { HANDLED, route, type Route } from './core/route.js';
import type { LoadedProject } from './core/loaders.js';
import type Koa from 'koa';

const jobId = { job_id: p.integer().required() };

async function jobOr404(deps: Deps, projectId: number, id: number): Promise<BuildRow> {
  const row = await findJob(deps.db, projectId, id);
  if (!row) throw recordNotFound();
  return row;
}

/** The job to run, found (404) and then judged (Ci::BuildPolicy's update_build: 403). */
async function jobToRun(deps: Deps, loaded: LoadedProject, id: number): Promise<BuildRow> {
  const build = await jobOr404(deps, loaded.project.id, id);
  if (!can(loaded.user, { kind: 'build', ...(await ciRefFacts(deps.db, loaded.project, loaded.access, build)) }, 'update_build')) throw forbidden();
  return build;
}

async function presentJob(deps: Deps, project: ProjectWithNamespace, build: BuildRow) {
  return (await presentJobs(deps, project, [build]))[0];
}

function sendArtifacts(ctx: Koa.Context, deps: Deps, build: BuildRow): typeof HANDLED {
  const file = artifactsFile(deps, build.project_id, build.id);
  if (!build.artifacts_file || !fs.existsSync(file)) throw notFound();
  ctx.status = 200;
  ctx.set('Content-Type', 'application/octet-stream');
  ctx.set('Content-Disposition', `attachment; filename=${build.artifacts_file}`);
  ctx.set('Content-Length', String(fs.statSync(file).size));
  ctx.body = fs.createReadStream(file);
  return HANDLED;
}

export const jobRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id',
    auth: 'user', // lib/api/jobs.rb: authenticate! first
    load: 'project',
    ability: 'read_build',
    params: jobId,
    summary: 'Get a specific job of a project',
    handler: async ({ deps, project, params }) => presentJob(deps, project, await jobOr404(deps, project.id, params.job_id)),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id/trace',
    auth: 'user', // lib/api/jobs.rb: authenticate! first
    load: 'project',
    ability: 'read_build',
    params: jobId,
    summary: 'Get a trace of a specific job of a project',
    handler: async ({ ctx, deps, project, params }) => {
      const build = await jobOr404(deps, project.id, params.job_id);
      ctx.status = 200;
      ctx.set('Content-Type', 'text/plain');
      ctx.set('Content-Disposition', `infile; filename="${build.id}.log"`);
      ctx.body = await readTrace(traceFile(deps, project.id, build.id));
      return HANDLED;
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/cancel',
    auth: 'user',
    load: 'project',
    ability: 'update_build',
    params: jobId,
    status: 201,
    summary: 'Cancel a specific job of a project',
    handler: async ({ deps, project, loaded, params }) => presentJob(deps, project, await cancelJob(deps, await jobToRun(deps, loaded, params.job_id))),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/retry',
    auth: 'user',
    load: 'project',
    ability: 'update_build',
    params: jobId,
    status: 201,
    summary: 'Retry a specific build of a project',
    handler: async ({ deps, project, loaded, user, params }) => {
      const build = await jobToRun(deps, loaded, params.job_id);
      if (!retryable(build)) throw forbidden('Job is not retryable');
      return presentJob(deps, project, await retryJob(deps, build, user.id));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/play',
    auth: 'user',
    load: 'project',
    ability: 'read_build',
    params: jobId,
    status: 200,
    summary: 'Trigger a manual job',
    handler: async ({ deps, project, loaded, user, params }) => {
      const build = await jobToRun(deps, loaded, params.job_id);
      // GitLab's bad_request!(attribute) wording, as 10.8 answers it.
      if (!playable(build)) throw badRequest('400 (Bad request) "Unplayable Job" not given');
      return presentJob(deps, project, await playJob(deps, build, user.id));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id/artifacts',
    auth: 'anonymous',
    load: 'project',
    ability: 'read_build',
    params: jobId,
    summary: 'Download the artifacts archive from a job',
    handler: async ({ ctx, deps, project, params }) => sendArtifacts(ctx, deps, await jobOr404(deps, project.id, params.job_id)),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/artifacts/*ref_name/download',
    auth: 'anonymous',
    load: 'project',
    ability: 'read_build',
    params: { job: p.string().required() },
    summary: 'Download the artifacts archive of the latest successful pipeline of a ref',
    handler: async ({ ctx, deps, project, params, path }) => {
      const refName = Array.isArray(path.ref_name) ? path.ref_name.join('/') : String(path.ref_name);
      const build = await latestSuccessfulJob(deps.db, project.id, refName, params.job);
      if (!build) throw recordNotFound();
      return sendArtifacts(ctx, deps, build);
    },
  }),
];
