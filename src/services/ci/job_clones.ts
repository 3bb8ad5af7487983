// A job's clone, as GitLab 10.8's Ci::RetryBuildService#reprocess! makes it: the same job
// (CLONE_ACCESSORS: name, stage, options, variables, environment, …) as a new row, created by
// the retrying user, with none of the run's traces (timestamps, token, coverage, artifacts,
// runner lease). Used by the retry and play actions and by the automatic retry of `retry:`.
import type { Conn } from '../../store/db.js';
import type { BuildRow } from '../../store/ci_rows.js';
import { insertReturningId } from '../../store/ids.js';

export function cloneOf(b: BuildRow, userId: number | null, stamp: string): Omit<BuildRow, 'id'> {
  const { id: _id, ...rest } = b;
  return {
    ...rest,
    status: 'created',
    retried: false,
    user_id: userId,
    created_at: stamp,
    updated_at: stamp,
    queued_at: null,
    started_at: null,
    finished_at: null,
    coverage: null,
    token_digest: null,
    artifacts_file: null,
    artifacts_size: null,
    artifacts_expire_at: null,
    runner_owner: null,
    lease_until: null,
  };
}

export async function insertBuild(tx: Conn, row: Omit<BuildRow, 'id'>): Promise<number> {
  return insertReturningId(tx, 'ci_builds', row);
}
