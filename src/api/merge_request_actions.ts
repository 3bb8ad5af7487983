// Merging merge requests (GitLab 10.8 lib/api/merge_requests.rb): PUT .../merge,
// POST .../cancel_merge_when_pipeline_succeeds and GET .../closes_issues. The project and the
// merge request are resolved before the parameters are read (404 "404 Not found" for a
// merge request the user cannot see); the rules themselves are in services/merges.ts.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { loadProject, type LoadedProject } from './loaders.js';
import { currentUser, requireUser } from '../http/auth.js';
import { forbidden, recordNotFound } from '../http/errors.js';
import { coerceInteger, p, parseValues, rawParams } from '../http/params.js';
import { paginateArray } from '../http/pagination.js';
import { findMergeRequest, type MergeRequestRow } from '../finders/merge_requests.js';
import { loadIssueExtras } from '../finders/issues.js';
import { canReadMergeRequest } from '../policy/merge_requests.js';
import { issueBasic } from '../entities/issue.js';
import { presentMergeRequests } from '../entities/merge_request.js';
import { acceptMergeRequest, cancelMergeWhenPipelineSucceeds } from '../services/merges.js';
import { mergeRequestClosesIssues } from '../services/closing_issues.js';

const MERGE_SCHEMA = {
  merge_commit_message: p.string(),
  should_remove_source_branch: p.boolean(),
  merge_when_pipeline_succeeds: p.boolean(),
  sha: p.string(),
};

/**
 * The merge request of `:merge_request_iid` in the loaded project (GitLab's
 * find_project_merge_request: no read check of its own; each route checks its right).
 */
async function loadMergeRequest(ctx: Koa.Context, deps: Deps, loaded: LoadedProject): Promise<MergeRequestRow> {
  let iid: number;
  try {
    iid = coerceInteger(ctx.params.merge_request_iid);
  } catch {
    throw recordNotFound();
  }
  const mr = await findMergeRequest(deps.db, loaded.project.id, iid);
  if (!mr) throw recordNotFound();
  return mr;
}

export function mergeRequestActionsRouter(deps: Deps): Router {
  const router = new Router();
  const base = '/projects/:id/merge_requests/:merge_request_iid';

  router.put(`${base}/merge`, async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const mr = await loadMergeRequest(ctx, deps, loaded);
    const params = parseValues(rawParams(ctx), MERGE_SCHEMA);
    const merged = await acceptMergeRequest(deps, loaded, mr, user, {
      commitMessage: params.merge_commit_message ?? undefined,
      shouldRemoveSourceBranch: params.should_remove_source_branch ?? undefined,
      mergeWhenPipelineSucceeds: params.merge_when_pipeline_succeeds ?? undefined,
      sha: params.sha ?? undefined,
    });
    ctx.body = (await presentMergeRequests(deps, [merged], user))[0];
  });

  router.post(`${base}/cancel_merge_when_pipeline_succeeds`, async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const mr = await loadMergeRequest(ctx, deps, loaded);
    ctx.status = 201;
    ctx.body = await cancelMergeWhenPipelineSucceeds(deps, loaded, mr, user);
  });

  router.get(`${base}/closes_issues`, async (ctx) => {
    const user = currentUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const mr = await loadMergeRequest(ctx, deps, loaded);
    // find_merge_request_with_access: read_merge_request, else 403.
    if (!canReadMergeRequest(user, loaded.project, loaded.access, mr)) throw forbidden();
    const issues = paginateArray(ctx, await mergeRequestClosesIssues(deps, loaded.project, mr, user));
    const extras = await loadIssueExtras(deps.db, issues);
    ctx.body = issues.map((i) => issueBasic(i, extras, deps.urls));
  });

  return router;
}
