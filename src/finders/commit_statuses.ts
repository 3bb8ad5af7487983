// The reads behind GitLab 10.8's commit statuses: the statuses of a commit as
// lib/api/commit_statuses.rb lists them (every CommitStatus of the project's pipelines whose
// sha is the one asked — jobs and external statuses alike — the latest (non-retried) ones
// unless `all`, by ref, stage and name, oldest first as 10.8's paginate orders by id), and a
// commit's last pipeline (Commit#last_pipeline and Commit#status: the newest pipeline of the
// project at that sha). One query each.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { BuildRow, PipelineRow } from '../store/ci_rows.js';

export interface StatusFilters {
  ref?: string;
  stage?: string;
  name?: string;
  /** Retried statuses too. */
  all?: boolean;
}

/** Rails' `present?` of a string parameter: not blank. */
const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** The statuses of commit `sha` in the project, each with its pipeline's sha (`pipeline_sha`). */
export function commitStatusesQuery(db: Conn, projectId: number, sha: string, f: StatusFilters): Knex.QueryBuilder {
  const q = db('ci_builds')
    .join('ci_pipelines', 'ci_pipelines.id', 'ci_builds.pipeline_id')
    .where('ci_pipelines.project_id', projectId)
    .where('ci_pipelines.sha', sha)
    .select('ci_builds.*', 'ci_pipelines.sha as pipeline_sha')
    .orderBy('ci_builds.id', 'asc');
  if (!f.all) q.where('ci_builds.retried', false);
  if (present(f.ref)) q.where('ci_builds.ref', f.ref);
  if (present(f.stage)) q.where('ci_builds.stage', f.stage);
  if (present(f.name)) q.where('ci_builds.name', f.name);
  return q;
}

/** One status with its pipeline's sha. */
export async function findStatusWithSha(db: Conn, id: number): Promise<(BuildRow & { pipeline_sha: string }) | undefined> {
  return db('ci_builds').join('ci_pipelines', 'ci_pipelines.id', 'ci_builds.pipeline_id').where('ci_builds.id', id).first('ci_builds.*', 'ci_pipelines.sha as pipeline_sha');
}

/** The project's newest pipeline at commit `sha` (its status is the commit's), or null. */
export async function lastPipelineFor(db: Conn, projectId: number, sha: string): Promise<PipelineRow | null> {
  const row: PipelineRow | undefined = await db('ci_pipelines').where({ project_id: projectId, sha }).orderBy('id', 'desc').first();
  return row ?? null;
}
