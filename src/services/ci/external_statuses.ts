// The rows behind GitLab 10.8's external commit statuses: Project#pipeline_for (the newest
// pipeline of a ref at a commit) or a new pipeline with source `external`, as
// lib/api/commit_statuses.rb creates it (no tag, no before_sha, status `created` until its
// statuses move it); a new GenericCommitStatus (stage `external`, stage_idx 1000000, as
// set_default_values gives it); and Ci::ProcessPipelineService#update_retried, which marks
// every status but the newest of each name in a pipeline as retried.
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import type { Conn } from '../../store/db.js';
import { now } from '../../store/time.js';
import { insertBuild } from './job_clones.js';
import { insertReturningId } from '../../store/ids.js';

export const GENERIC_STATUS_TYPE = 'GenericCommitStatus';

/** The project's newest pipeline of `ref` at `sha`, or a new external one. */
export async function pipelineFor(tx: Conn, projectId: number, userId: number, sha: string, ref: string): Promise<PipelineRow> {
  const found: PipelineRow | undefined = await tx('ci_pipelines').where({ project_id: projectId, sha, ref }).orderBy('id', 'desc').first();
  if (found) return found;
  const stamp = now();
  const row: Omit<PipelineRow, 'id'> = {
    project_id: projectId,
    ref,
    sha,
    before_sha: null,
    tag: false,
    yaml_errors: null,
    status: 'created',
    source: 'external',
    user_id: userId,
    created_at: stamp,
    updated_at: stamp,
    started_at: null,
    finished_at: null,
    committed_at: null,
    duration: null,
    coverage: null,
  };
  return { ...row, id: await insertReturningId(tx, 'ci_pipelines', row) };
}

/** A new external status in `created`, of the pipeline's project. */
export async function insertExternalStatus(tx: Conn, pipeline: PipelineRow, s: { name: string; ref: string; userId: number }): Promise<BuildRow> {
  const stamp = now();
  const row: Omit<BuildRow, 'id'> = {
    project_id: pipeline.project_id,
    pipeline_id: pipeline.id,
    name: s.name,
    stage: 'external',
    stage_idx: 1_000_000,
    status: 'created',
    when: 'on_success',
    allow_failure: false,
    retried: false,
    ref: s.ref,
    tag: false,
    options: '{}',
    yaml_variables: '[]',
    tag_list: '[]',
    environment: null,
    coverage_regex: null,
    coverage: null,
    user_id: s.userId,
    token_digest: null,
    created_at: stamp,
    updated_at: stamp,
    queued_at: null,
    started_at: null,
    finished_at: null,
    artifacts_file: null,
    artifacts_size: null,
    artifacts_expire_at: null,
    type: GENERIC_STATUS_TYPE,
    description: null,
    target_url: null,
  };
  return { ...row, id: await insertBuild(tx, row) };
}

/** Every latest status of the pipeline that a newer one of its name replaced becomes retried. */
export async function updateRetried(tx: Conn, pipelineId: number): Promise<void> {
  const latest: { id: number; name: string }[] = await tx('ci_builds').where({ pipeline_id: pipelineId, retried: false }).select('id', 'name');
  const newest = new Map<string, number>();
  for (const r of latest) newest.set(r.name, Math.max(newest.get(r.name) ?? 0, r.id));
  const stale = latest.filter((r) => r.id !== newest.get(r.name)).map((r) => r.id);
  if (stale.length) await tx('ci_builds').whereIn('id', stale).update({ retried: true }); // update_all: updated_at kept
}
