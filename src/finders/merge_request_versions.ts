// A merge request's diff versions (GitLab 10.8's merge_request.merge_request_diffs), newest first,
// and one of them by id.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { MergeRequestDiffRow } from '../store/merge_request_diff_rows.js';

export function versionsQuery(db: Conn, mergeRequestId: number): Knex.QueryBuilder {
  return db('merge_request_diffs').where({ merge_request_id: mergeRequestId }).orderBy('id', 'desc');
}

export async function findVersion(db: Conn, mergeRequestId: number, id: number): Promise<MergeRequestDiffRow | undefined> {
  return db('merge_request_diffs').where({ merge_request_id: mergeRequestId, id }).first();
}

/** The version whose three commits are these (what a diff note's position names), if any. */
export async function findVersionByShas(
  db: Conn,
  mergeRequestId: number,
  shas: { base_sha: string; start_sha: string; head_sha: string },
): Promise<MergeRequestDiffRow | undefined> {
  return db('merge_request_diffs')
    .where({ merge_request_id: mergeRequestId, base_commit_sha: shas.base_sha, start_commit_sha: shas.start_sha, head_commit_sha: shas.head_sha })
    .first();
}
