// GitLab 10.8's lib/api/merge_request_diffs.rb: a merge request's diff versions, signed-in users
// only (`authenticate!`, even on public projects), for whoever may read the merge request:
// `GET …/merge_requests/:merge_request_iid/versions` (paginated, newest first) and
// `GET …/versions/:version_id` with the version's commits (start..head) and diffs (base..head).
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { recordNotFound } from '../http/errors.js';
import { findVersion, versionsQuery } from '../finders/merge_request_versions.js';
import type { MergeRequestDiffRow } from '../store/merge_request_diff_rows.js';
import { mergeRequestDiffEntity } from '../entities/merge_request_diff.js';
import { commitBasic } from '../entities/commit.js';
import { diffEntity } from '../entities/diff.js';
import { commitsOfDiff, diffOf } from '../services/merge_requests/diff.js';
import { readableMergeRequest } from './merge_requests.js';
import { route, type Route } from './core/route.js';

const VERSIONS = '/projects/:id/merge_requests/:merge_request_iid/versions';

export const mergeRequestVersionRoutes: Route[] = [
  route({
    method: 'GET',
    path: VERSIONS,
    auth: 'user',
    load: 'project',
    params: { merge_request_iid: p.integer().required() },
    summary: 'Get a list of merge request diff versions',
    handler: async ({ ctx, deps, loaded, params }) => {
      const mr = await readableMergeRequest(deps, loaded, params.merge_request_iid);
      return (await paginate<MergeRequestDiffRow>(ctx, deps.db, versionsQuery(deps.db, mr.id))).map(mergeRequestDiffEntity);
    },
  }),
  route({
    method: 'GET',
    path: `${VERSIONS}/:version_id`,
    auth: 'user',
    load: 'project',
    params: { merge_request_iid: p.integer().required(), version_id: p.integer().required() },
    summary: 'Get a single merge request diff version',
    handler: async ({ deps, loaded, params }) => {
      const mr = await readableMergeRequest(deps, loaded, params.merge_request_iid);
      const version = await findVersion(deps.db, mr.id, params.version_id);
      if (!version) throw recordNotFound(); // ActiveRecord's find: `404 Not found`
      const commits = await commitsOfDiff(deps, loaded.project, version.start_commit_sha, version.head_commit_sha);
      const diffs = await diffOf(deps, loaded.project, version.base_commit_sha, version.head_commit_sha);
      return { ...mergeRequestDiffEntity(version), commits: commits.map(commitBasic), diffs: diffs.map(diffEntity) };
    },
  }),
];
