// GitLab 10.8's CommitStatus entity (lib/api/entities.rb `CommitStatus`): what
// GET /projects/:id/repository/commits/:sha/statuses lists and POST /projects/:id/statuses/:sha
// answers, for a job and for an external status alike. `sha` is the pipeline's (CommitStatus
// delegates it), `author` the status's user as UserBasic. Pure: the caller loads the users.
import type { Urls } from '../http/urls.js';
import type { BuildRow } from '../store/ci_rows.js';
import type { UserRow } from '../store/rows.js';
import { userBasic } from './user.js';

/** A status row with its pipeline's commit. */
export type StatusWithSha = BuildRow & { pipeline_sha: string };

export function commitStatusEntity(row: StatusWithSha, author: UserRow | undefined, urls: Urls) {
  return {
    id: row.id,
    sha: row.pipeline_sha,
    ref: row.ref,
    status: row.status,
    name: row.name,
    target_url: row.target_url,
    description: row.description,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    allow_failure: !!row.allow_failure,
    coverage: row.coverage === null || row.coverage === undefined ? null : Number(row.coverage),
    author: author ? userBasic(author, urls) : null,
  };
}
