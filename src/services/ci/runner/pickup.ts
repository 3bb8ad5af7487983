// The pickup of CI jobs, shaped as GitLab's Ci::RegisterJobService so that the Runner protocol
// (`POST /api/v4/jobs/request`) can serve real runners with it next: the oldest `pending` job of
// type Ci::Build is moved to `running` by an UPDATE … WHERE status = 'pending' (inside
// transitionBuild), which only one claimer wins on SQLite and PostgreSQL alike; the winner gets
// a fresh job token (only its SHA-256 digest is stored) and a lease that its process renews. A
// job whose lease expired (the process running it died) is failed by the next pickup, as
// GitLab's StuckCiJobsWorker drops jobs whose runner went silent.
import crypto from 'node:crypto';
import type { Db } from '../../../store/db.js';
import type { BuildRow } from '../../../store/ci_rows.js';
import { transitionBuild } from '../build_transitions.js';
import { jobTokenDigest } from '../../../finders/job_tokens.js';

const BUILD_TYPE = 'Ci::Build';

export interface Claimed {
  build: BuildRow;
  /** The job token (CI_JOB_TOKEN), given once. */
  token: string;
}

function leaseUntil(leaseMs: number): string {
  return new Date(Date.now() + leaseMs).toISOString();
}

/** Claims the oldest pending job for `owner`; null when there is none left. */
export async function claimNextBuild(db: Db, owner: string, leaseMs: number): Promise<Claimed | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidates: { id: number }[] = await db('ci_builds').where({ type: BUILD_TYPE, status: 'pending' }).orderBy('id').limit(5).select('id');
    if (!candidates.length) return null;
    for (const { id } of candidates) {
      const token = crypto.randomBytes(20).toString('hex');
      const build = await transitionBuild(db, id, 'running', { token_digest: jobTokenDigest(token), runner_owner: owner, lease_until: leaseUntil(leaseMs) });
      if (build) return { build, token };
    }
  }
  return null;
}

/** Keeps this owner's running jobs claimed for another lease. */
export async function renewLeases(db: Db, owner: string, ids: number[], leaseMs: number): Promise<void> {
  if (!ids.length) return;
  await db('ci_builds')
    .whereIn('id', ids)
    .where({ runner_owner: owner, status: 'running' })
    .update({ lease_until: leaseUntil(leaseMs) });
}

/** Fails the running jobs whose lease expired (their process died); answers their ids. */
export async function failAbandonedBuilds(db: Db, onFailed?: (build: BuildRow) => void): Promise<number[]> {
  const stale: BuildRow[] = await db('ci_builds').where({ type: BUILD_TYPE, status: 'running' }).whereNotNull('lease_until').where('lease_until', '<', new Date().toISOString());
  const failed: number[] = [];
  for (const b of stale) {
    const moved = await transitionBuild(db, b.id, 'failed', { runner_owner: null, lease_until: null });
    if (moved) {
      failed.push(b.id);
      onFailed?.(moved);
    }
  }
  return failed;
}
