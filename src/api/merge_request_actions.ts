// Merging merge requests (GitLab 10.8 lib/api/merge_requests.rb): PUT .../merge,
// POST .../cancel_merge_when_pipeline_succeeds and GET .../closes_issues. The route table
// loads the project and parses the parameters; the merge request is then found in it (GitLab's
// find_project_merge_request, no read check of its own: `404 Not found` when missing, and for
// an iid that is not a number, which 10.8 does not declare here). Merging declares its right,
// merge_merge_request (policy/merge_requests.ts), asked of the merge request once it is found
// and answered 401 as 10.8's `unauthorized!`; the other routes check theirs; the merge rules
// themselves are in services/merge_requests/merges.ts.
import type { Deps } from '../deps.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { forbidden, recordNotFound } from '../http/errors.js';
import { coerceInteger, p } from '../http/params.js';
import { paginateArray } from '../http/pagination.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';
import { loadIssueExtras } from '../finders/issues.js';
import { can } from '../policy/can.js';
import { mergeRequestSubject } from './noteables.js';
import { issueBasic } from '../entities/issue.js';
import { presentMergeRequests } from './present_merge_requests.js';
import { acceptMergeRequest } from '../services/merge_requests/merges.js';
import { cancelMergeWhenPipelineSucceeds } from '../services/merge_requests/automatic_merge.js';
import { mergeRequestClosesIssues } from '../services/merge_requests/closing_issues.js';

const ITEM = '/projects/:id/merge_requests/:merge_request_iid';
const MERGE_REQUEST = { schema: 'MergeRequest' } as const;

/** The merge request of `:merge_request_iid` in the loaded project, or `404 Not found`. */
async function mergeRequestOr404(deps: Deps, loaded: LoadedProject, rawIid: string): Promise<MergeRequestRow> {
  let iid: number;
  try {
    iid = coerceInteger(rawIid);
  } catch {
    throw recordNotFound();
  }
  const mr = await findMergeRequest(deps.db, loaded.project.id, iid);
  if (!mr) throw recordNotFound();
  return mr;
}

export const mergeRequestActionRoutes: Route[] = [
  route({
    method: 'PUT',
    path: `${ITEM}/merge`,
    auth: 'user',
    load: 'project',
    item: 'merge_request',
    ability: 'merge_merge_request',
    denied: 401,
    params: {
      merge_commit_message: p.string(),
      should_remove_source_branch: p.boolean(),
      merge_when_pipeline_succeeds: p.boolean(),
      sha: p.string(),
    },
    summary: 'Merge a merge request (or merge when the pipeline succeeds)',
    response: MERGE_REQUEST,
    handler: async ({ deps, user, loaded, mergeRequest, params }) => {
      const merged = await acceptMergeRequest(deps, loaded, mergeRequest, user, {
        commitMessage: params.merge_commit_message ?? undefined,
        shouldRemoveSourceBranch: params.should_remove_source_branch ?? undefined,
        mergeWhenPipelineSucceeds: params.merge_when_pipeline_succeeds ?? undefined,
        sha: params.sha ?? undefined,
      });
      return (await presentMergeRequests(deps, [merged], user))[0];
    },
  }),

  route({
    method: 'POST',
    path: `${ITEM}/cancel_merge_when_pipeline_succeeds`,
    auth: 'user',
    load: 'project',
    summary: 'Cancel merge when pipeline succeeds',
    response: MERGE_REQUEST,
    handler: async ({ deps, user, loaded, path }) => cancelMergeWhenPipelineSucceeds(deps, loaded, await mergeRequestOr404(deps, loaded, path.merge_request_iid), user),
  }),

  // find_merge_request_with_access: read_merge_request, else 403.
  route({
    method: 'GET',
    path: `${ITEM}/closes_issues`,
    auth: 'anonymous',
    load: 'project',
    summary: 'The issues a merge request closes when merged',
    response: { schema: 'IssueBasic', list: true },
    handler: async ({ ctx, deps, user, loaded, path }) => {
      const mr = await mergeRequestOr404(deps, loaded, path.merge_request_iid);
      if (!can(user, mergeRequestSubject(loaded, mr), 'read_merge_request')) throw forbidden();
      const issues = paginateArray(ctx, await mergeRequestClosesIssues(deps, loaded.project, mr, user));
      const extras = await loadIssueExtras(deps.db, issues);
      return issues.map((i) => issueBasic(i, extras, deps.urls));
    },
  }),
];
