// GitLab 10.8's PipelinesFinder and the jobs lists: a project's pipelines with every filter of
// GET /projects/:id/pipelines (scope, status, ref, sha, yaml_errors, name, username,
// order_by, sort), and a project's or a pipeline's jobs by scope (Ci::Build rows only).
// One query per list.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { BuildRow, PipelineRow } from '../store/ci_rows.js';

export interface PipelineFilters {
  scope?: string;
  status?: string;
  ref?: string;
  sha?: string;
  yaml_errors?: boolean;
  name?: string;
  username?: string;
  order_by?: string;
  sort?: string;
}

export const PIPELINE_SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
export const PIPELINE_ORDERS = ['id', 'status', 'ref', 'user_id'] as const;

export function pipelinesQuery(db: Conn, projectId: number, f: PipelineFilters): Knex.QueryBuilder {
  const q = db('ci_pipelines').where('ci_pipelines.project_id', projectId).select('ci_pipelines.*');
  if (f.scope === 'running') q.where('ci_pipelines.status', 'running');
  if (f.scope === 'pending') q.where('ci_pipelines.status', 'pending');
  if (f.scope === 'finished') q.whereIn('ci_pipelines.status', ['success', 'failed', 'canceled']);
  if (f.scope === 'branches' || f.scope === 'tags') {
    // the latest pipeline of each branch (tag)
    const latest = db('ci_pipelines')
      .max('id')
      .where({ project_id: projectId, tag: f.scope === 'tags' })
      .groupBy('ref');
    q.whereIn('ci_pipelines.id', latest);
  }
  if (f.status) q.where('ci_pipelines.status', f.status);
  if (f.ref) q.where('ci_pipelines.ref', f.ref);
  if (f.sha) q.where('ci_pipelines.sha', f.sha);
  if (f.yaml_errors === true) q.whereNotNull('ci_pipelines.yaml_errors');
  if (f.yaml_errors === false) q.whereNull('ci_pipelines.yaml_errors');
  if (f.name || f.username) {
    q.join('users', 'users.id', 'ci_pipelines.user_id');
    if (f.name) q.where('users.name', f.name);
    if (f.username) q.where('users.username', f.username);
  }
  const order = PIPELINE_ORDERS.includes(f.order_by as never) ? f.order_by! : 'id';
  const dir = f.sort === 'asc' ? 'asc' : 'desc';
  q.orderBy(`ci_pipelines.${order}`, dir);
  if (order !== 'id') q.orderBy('ci_pipelines.id', dir);
  return q;
}

export async function findPipeline(db: Conn, projectId: number, id: number): Promise<PipelineRow | undefined> {
  return db('ci_pipelines').where({ project_id: projectId, id }).first();
}

/** A job of the project: a Ci::Build, never an external commit status (`user_project.builds.find`). */
export async function findJob(db: Conn, projectId: number, id: number): Promise<BuildRow | undefined> {
  return db('ci_builds').where({ project_id: projectId, id, type: 'Ci::Build' }).first();
}

/**
 * Project#latest_successful_builds_for(ref) with that name: the newest successful pipeline of
 * the ref, and its newest successful job of the name that was not retried.
 */
export async function latestSuccessfulJob(db: Conn, projectId: number, ref: string, name: string): Promise<BuildRow | undefined> {
  const pipeline: { id: number } | undefined = await db('ci_pipelines').where({ project_id: projectId, ref, status: 'success' }).orderBy('id', 'desc').first('id');
  if (!pipeline) return undefined;
  return db('ci_builds').where({ pipeline_id: pipeline.id, name, type: 'Ci::Build', retried: false, status: 'success' }).orderBy('id', 'desc').first();
}

export async function pipelinesById(db: Conn, ids: number[]): Promise<PipelineRow[]> {
  return ids.length ? db('ci_pipelines').whereIn('id', ids) : [];
}

export const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'manual'] as const;

/**
 * A project's (or one pipeline's) jobs, newest first, retried ones too (as 10.8's
 * `pipeline.builds`), optionally of some statuses: its Ci::Builds (`user_project.builds`,
 * `pipeline.builds`), never external commit statuses.
 */
export function buildsQuery(db: Conn, projectId: number, opts: { pipelineId?: number; scope?: string[] }): Knex.QueryBuilder {
  const q = db('ci_builds').where({ project_id: projectId, type: 'Ci::Build' }).orderBy('id', 'desc');
  if (opts.pipelineId !== undefined) q.where({ pipeline_id: opts.pipelineId });
  if (opts.scope?.length) q.whereIn('status', opts.scope);
  return q;
}

/** The coverage of each latest status of a pipeline (jobs and external statuses), oldest first. */
export async function latestCoverages(db: Conn, pipelineId: number): Promise<number[]> {
  const rows: { coverage: number | string }[] = await db('ci_builds').where({ pipeline_id: pipelineId, retried: false }).whereNotNull('coverage').orderBy('id').select('coverage');
  return rows.map((r) => Number(r.coverage));
}
