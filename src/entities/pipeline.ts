// GitLab 10.8's PipelineBasic, Pipeline, JobBasic and Job entities (lib/api/entities.rb).
// Pure presenters: the users and commits they embed are loaded by the caller, in one query
// per list.
import type { CommitInfo } from '../git/reader.js';
import type { Urls } from '../http/urls.js';
import type { BuildRow, PipelineRow } from '../store/ci_rows.js';
import type { UserRow } from '../store/rows.js';
import { commitBasic } from './commit.js';
import { userBasic, userEntity } from './user.js';

export function pipelineBasic(p: Pick<PipelineRow, 'id' | 'sha' | 'ref' | 'status'>) {
  return { id: p.id, sha: p.sha, ref: p.ref, status: p.status };
}

/**
 * Ci::Pipeline#coverage: the mean of its latest statuses' coverage as Ruby's '%.2f' writes it
 * (an exact binary tie rounds to even, as C's printf does); null when none has one.
 */
export function pipelineCoverage(values: readonly number[]): string | null {
  if (!values.length) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  // toFixed rounds the exact binary value half up; the only exact ties at two decimals are
  // odd multiples of 1/8 (x.125, x.375, ...), which printf takes to the even neighbour.
  if (Number.isInteger(mean * 8) && !Number.isInteger(mean * 4)) {
    const floor = Math.floor(mean * 100);
    return ((floor % 2 === 0 ? floor : floor + 1) / 100).toFixed(2);
  }
  return mean.toFixed(2);
}

export function pipelineEntity(p: PipelineRow, user: UserRow | undefined, urls: Urls) {
  return {
    ...pipelineBasic(p),
    before_sha: p.before_sha,
    tag: !!p.tag,
    yaml_errors: p.yaml_errors,
    user: user ? userBasic(user, urls) : null,
    created_at: p.created_at,
    updated_at: p.updated_at,
    started_at: p.started_at,
    finished_at: p.finished_at,
    committed_at: p.committed_at,
    duration: p.duration,
    coverage: p.coverage,
  };
}

/** Seconds from start to finish (or to now while running), as Ci::Build#duration. */
function jobDuration(b: BuildRow): number | null {
  if (!b.started_at) return null;
  const end = b.finished_at ? Date.parse(b.finished_at) : Date.now();
  return (end - Date.parse(b.started_at)) / 1000;
}

export interface JobEmbeds {
  user?: UserRow;
  commit?: CommitInfo;
  pipeline: PipelineRow;
}

export function jobEntity(b: BuildRow, e: JobEmbeds, urls: Urls) {
  return {
    id: b.id,
    status: b.status,
    stage: b.stage,
    name: b.name,
    ref: b.ref,
    tag: !!b.tag,
    coverage: b.coverage,
    created_at: b.created_at,
    started_at: b.started_at,
    finished_at: b.finished_at,
    duration: jobDuration(b),
    // JobBasic exposes the full Entities::User (the profile fields too), not UserBasic.
    user: e.user ? userEntity(e.user, urls) : null,
    commit: e.commit ? commitBasic(e.commit) : null,
    pipeline: pipelineBasic(e.pipeline),
    ...(b.artifacts_file ? { artifacts_file: { filename: b.artifacts_file, size: b.artifacts_size } } : {}),
    runner: null,
  };
}
