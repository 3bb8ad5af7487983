// The pipelines of a merge request, as GitLab 10.8's MergeRequest model finds them: its
// `all_pipelines` (the source project's pipelines on the source branch whose commit is one of
// the merge request's, newest first), its head pipeline (the source project's latest pipeline
// of the source branch at the merge request's head commit: what UpdateHeadPipelineForMerge
// RequestWorker records and `actual_head_pipeline` accepts), and, for a pipeline, the open
// merge requests whose head pipeline it is (MergeRequests::BaseService#pipeline_merge_requests).
// Wharf keeps no head_pipeline_id column: the head pipeline is looked up, one indexed query
// (ci_pipelines (project_id, ref, id)).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { PipelineRow } from '../store/ci_rows.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';

type MergeRequestHead = Pick<MergeRequestRow, 'source_project_id' | 'source_branch' | 'head_sha'>;

/** MergeRequest#all_pipelines for the merge request's commits `shas`, newest first. */
export function allPipelinesQuery(db: Conn, mr: MergeRequestHead, shas: string[]): Knex.QueryBuilder {
  const q = db('ci_pipelines').select('ci_pipelines.*').orderBy('id', 'desc');
  if (mr.source_project_id === null || shas.length === 0) return q.whereRaw('1 = 0');
  return q.where({ project_id: mr.source_project_id, ref: mr.source_branch }).whereIn('sha', shas);
}

/** The head pipeline: the source branch's latest pipeline at the merge request's head commit. */
export async function headPipelineOf(db: Conn, mr: MergeRequestHead): Promise<PipelineRow | null> {
  if (mr.source_project_id === null || !mr.head_sha) return null;
  const row = await db('ci_pipelines').where({ project_id: mr.source_project_id, ref: mr.source_branch, sha: mr.head_sha }).orderBy('id', 'desc').first();
  return row ?? null;
}

/**
 * The open merge requests waiting to be merged when `pipeline` succeeds
 * (merge_when_pipeline_succeeds) whose head pipeline it is: source branch and head commit the
 * pipeline's, and no newer pipeline at that commit.
 */
export async function mergeRequestsWaitingFor(db: Conn, pipeline: Pick<PipelineRow, 'id' | 'project_id' | 'ref' | 'sha'>): Promise<MergeRequestRow[]> {
  const newer = await db('ci_pipelines').where({ project_id: pipeline.project_id, ref: pipeline.ref, sha: pipeline.sha }).where('id', '>', pipeline.id).first('id');
  if (newer) return [];
  return db('merge_requests')
    .where({ source_project_id: pipeline.project_id, source_branch: pipeline.ref, head_sha: pipeline.sha, state: 'opened' })
    .where('merge_when_pipeline_succeeds', true)
    .orderBy('id', 'asc');
}

/**
 * The pipeline of each merge request's metrics (GitLab 10.8's PipelineMetricsWorker records
 * the head pipeline when it starts running or succeeds): the latest pipeline of the source
 * branch at the merge request's head commit that started or succeeded. One query per page.
 */
export async function metricsPipelinesOf(db: Conn, rows: MergeRequestHead[]): Promise<Map<MergeRequestHead, PipelineRow>> {
  const out = new Map<MergeRequestHead, PipelineRow>();
  const heads = rows.filter((r) => r.source_project_id !== null && r.head_sha);
  if (!heads.length) return out;
  const found: PipelineRow[] = await db('ci_pipelines')
    .whereIn('project_id', [...new Set(heads.map((r) => r.source_project_id!))])
    .whereIn('sha', [...new Set(heads.map((r) => r.head_sha!))])
    .where((q) => q.whereNotNull('started_at').orWhere('status', 'success'))
    .orderBy('id', 'desc');
  for (const r of heads) {
    const p = found.find((x) => x.project_id === r.source_project_id && x.ref === r.source_branch && x.sha === r.head_sha);
    if (p) out.set(r, p);
  }
  return out;
}

/**
 * The open merge requests of the project's branch `ref` whose head commit is `sha`
 * (MergeRequests::BaseService#commit_status_merge_requests: their head pipeline is at the
 * commit of the job); with `headOnly`, only when no newer pipeline of that branch and commit
 * exists (#pipeline_merge_requests: the pipeline is their head pipeline).
 */
export async function openMergeRequestsAtCommit(db: Conn, pipeline: Pick<PipelineRow, 'id' | 'project_id' | 'ref' | 'sha'>, headOnly = false): Promise<MergeRequestRow[]> {
  if (headOnly) {
    const newer = await db('ci_pipelines').where({ project_id: pipeline.project_id, ref: pipeline.ref, sha: pipeline.sha }).where('id', '>', pipeline.id).first('id');
    if (newer) return [];
  }
  return db('merge_requests').where({ source_project_id: pipeline.project_id, source_branch: pipeline.ref, head_sha: pipeline.sha, state: 'opened' }).orderBy('id', 'asc');
}
