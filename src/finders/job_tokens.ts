// The CI job a job token (CI_JOB_TOKEN) belongs to, as GitLab 10.8's Ci::Build.find_by_token
// reads it for `gitlab-ci-token` logins: only while the job runs (a finished job's token opens
// nothing), found by the token's SHA-256 digest (the token itself is never stored).
import crypto from 'node:crypto';
import type { Db } from '../store/db.js';

/** How a job token is stored: its SHA-256 digest, in hex. */
export function jobTokenDigest(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export interface RunningJob {
  id: number;
  project_id: number;
  user_id: number | null;
}

export async function runningJobByToken(db: Db, token: string): Promise<RunningJob | undefined> {
  if (!token) return undefined;
  return db('ci_builds')
    .where({ token_digest: jobTokenDigest(token), status: 'running' })
    .first('id', 'project_id', 'user_id');
}
