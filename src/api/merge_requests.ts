// Merge requests (GitLab 10.8 lib/api/merge_requests.rb): the two lists, create, single,
// update, delete, and the participants, commits, changes and pipelines of one. Reading works
// anonymously where the project allows it (GET /merge_requests only with scope=all); every
// write needs a user (401, 10.8's authenticate_non_get!). The route table resolves the
// project, checks the route's ability and parses the parameters (the iid included) before
// the merge request is looked up, as Grape validates before the endpoint runs; fields the
// user may not set are silently dropped (api/merge_request_params.ts). A merge request the
// user may not read is a 404, one they may read but not change a 403.
import type { Deps } from '../deps.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';
import type { UserRow } from '../store/rows.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { forbidden, recordNotFound, unauthorized } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate, paginateArray } from '../http/pagination.js';
import { MR_LIST_PARAMS, MR_OPTIONAL_PARAMS, MR_UPDATE_AT_LEAST_ONE, MR_UPDATE_LATER, mergeRequestFiltersOf, mergeRequestInputOf } from './merge_request_params.js';
import { mergeRequestSubject } from './noteables.js';
import { findMergeRequest, mergeRequestsQuery } from '../finders/merge_requests.js';
import { mergeRequestParticipants } from '../finders/participants.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { projectAccess } from '../policy/projects.js';
import { can, projectSubject } from '../policy/can.js';
import { createMergeRequest, deleteMergeRequest, updateMergeRequest } from '../services/merge_requests/merge_requests.js';
import { presentMergeRequestList, presentMergeRequests } from './present_merge_requests.js';
import { ISSUABLE_LIST_TOPICS } from '../store/count_cache.js';
import { cachedPage } from './core/page_cache.js';
import { userBasic } from '../entities/user.js';
import { commitBasic } from '../entities/commit.js';
import { diffEntity } from '../entities/diff.js';
import { mergeRequestChanges, mergeRequestCommits } from '../services/merge_requests/diff.js';
import { mergeRequestShas } from '../services/merge_requests/mergeable_ci_state.js';
import { allPipelinesQuery } from '../finders/merge_request_pipelines.js';
import { pipelineBasic } from '../entities/pipeline.js';
import type { PipelineRow } from '../store/ci_rows.js';

const MERGE_REQUEST = { schema: 'MergeRequest' } as const;
const MR_LIST = { schema: 'MergeRequestBasic', list: true } as const;
const ITEM = '/projects/:id/merge_requests/:merge_request_iid';
const mrIid = { merge_request_iid: p.integer().required() };

async function renderOne(deps: Deps, row: MergeRequestRow, user: UserRow | null) {
  return (await presentMergeRequests(deps, [row], user))[0];
}

/** find_merge_request_with_access: the merge request of the route, readable, or `404 Not found`. */
export async function readableMergeRequest(deps: Deps, loaded: LoadedProject, iid: number): Promise<MergeRequestRow> {
  const mr = await findMergeRequest(deps.db, loaded.project.id, iid);
  if (!mr || !can(loaded.user, mergeRequestSubject(loaded, mr), 'read_merge_request')) throw recordNotFound();
  return mr;
}

export const mergeRequestRoutes: Route[] = [
  // Anonymous callers only with scope=all (10.8: `authenticate! unless params[:scope] == 'all'`).
  route({
    method: 'GET',
    path: '/merge_requests',
    auth: 'anonymous',
    params: MR_LIST_PARAMS,
    summary: 'List the merge requests the user may see (scope created-by-me by default)',
    response: MR_LIST,
    handler: async ({ ctx, deps, user, params: v }) => {
      if (!user && v.scope !== 'all') throw unauthorized();
      return cachedPage(ctx, deps, user, ISSUABLE_LIST_TOPICS, async () => {
        const rows = await paginate<MergeRequestRow>(ctx, deps.db, mergeRequestsQuery(deps.db, user, { kind: 'all' }, mergeRequestFiltersOf(v, 'created-by-me')));
        return presentMergeRequestList(deps, rows, v.view === 'simple');
      });
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/merge_requests',
    auth: 'anonymous',
    load: 'project',
    ability: 'read_merge_request',
    params: { ...MR_LIST_PARAMS, iids: p.array(p.integer()) },
    summary: "List a project's merge requests",
    response: MR_LIST,
    handler: async ({ ctx, deps, user, project, params: v }) => {
      return cachedPage(ctx, deps, user, ISSUABLE_LIST_TOPICS, async () => {
        const query = mergeRequestsQuery(deps.db, user, { kind: 'project', projectId: project.id }, mergeRequestFiltersOf(v, 'all'));
        return presentMergeRequestList(deps, await paginate<MergeRequestRow>(ctx, deps.db, query), v.view === 'simple');
      });
    },
  }),

  // The source is the project of `:id` (create_merge_request_from); the target, when another
  // project, is looked up after the parameters and needs create_merge_request_in.
  route({
    method: 'POST',
    path: '/projects/:id/merge_requests',
    auth: 'user',
    load: 'project',
    ability: 'create_merge_request_from',
    params: {
      title: p.string().required(),
      source_branch: p.string().required(),
      target_branch: p.string().required(),
      target_project_id: p.integer(),
      ...MR_OPTIONAL_PARAMS,
    },
    summary: 'Open a merge request',
    response: MERGE_REQUEST,
    handler: async ({ deps, user, project: source, access, params: v }) => {
      let target = source;
      let targetAccess = access;
      if (v.target_project_id !== undefined && v.target_project_id !== null && v.target_project_id !== source.id) {
        const found = await findProjectByIdOrPath(deps.db, String(v.target_project_id));
        if (!found) throw recordNotFound();
        target = found;
        targetAccess = await projectAccess(deps.db, user, target);
      }
      const targetSubject = projectSubject(target, targetAccess);
      if (!can(user, targetSubject, 'create_merge_request_in')) throw forbidden();
      const input = await mergeRequestInputOf(deps, user, target, targetAccess, v);
      const mr = await createMergeRequest(
        deps,
        source,
        target,
        user,
        {
          ...input,
          title: v.title,
          sourceBranch: v.source_branch,
          targetBranch: v.target_branch,
          ...(v.remove_source_branch !== undefined && v.remove_source_branch !== null ? { forceRemoveSourceBranch: v.remove_source_branch } : {}),
        },
        { createLabels: can(user, targetSubject, 'admin_label') },
      );
      return renderOne(deps, mr, user);
    },
  }),

  route({
    method: 'GET',
    path: ITEM,
    auth: 'anonymous',
    load: 'project',
    params: mrIid,
    summary: 'Get a merge request',
    response: MERGE_REQUEST,
    handler: async ({ deps, user, loaded, params }) => renderOne(deps, await readableMergeRequest(deps, loaded, params.merge_request_iid), user),
  }),

  route({
    method: 'PUT',
    path: ITEM,
    auth: 'user',
    load: 'project',
    params: {
      ...mrIid,
      // Grape's allow_blank: false, which refuses null as it refuses ''.
      title: p.string().notBlank(),
      target_branch: p.string().notBlank(),
      state_event: p.string().values(['close', 'reopen']),
      discussion_locked: p.boolean(),
      ...MR_OPTIONAL_PARAMS,
    },
    rules: { atLeastOneOf: MR_UPDATE_AT_LEAST_ONE, atLeastOneOfLater: MR_UPDATE_LATER },
    summary: 'Edit a merge request (state_event close/reopen)',
    response: MERGE_REQUEST,
    handler: async ({ deps, user, loaded, params: v, can: canOnProject }) => {
      const mr = await readableMergeRequest(deps, loaded, v.merge_request_iid);
      if (!can(user, mergeRequestSubject(loaded, mr), 'update_merge_request')) throw forbidden();
      const input = await mergeRequestInputOf(deps, user, loaded.project, loaded.access, v);
      if (v.title !== undefined && v.title !== null) input.title = v.title;
      if (v.target_branch !== undefined && v.target_branch !== null) input.targetBranch = v.target_branch;
      if (v.state_event) input.stateEvent = v.state_event as 'close' | 'reopen';
      // 10.8 renamed `remove_source_branch` only when `.present?` (true); a false was left
      // under a name the model has no attribute for (an error, not a change). Both are kept.
      if (v.remove_source_branch !== undefined && v.remove_source_branch !== null) input.forceRemoveSourceBranch = v.remove_source_branch;
      const updated = await updateMergeRequest(deps, loaded.project, mr, user, input, { createLabels: canOnProject('admin_label') });
      return renderOne(deps, updated, user);
    },
  }),

  // 10.8 looks the merge request up first (`404 Not found`), then asks destroy_merge_request.
  route({
    method: 'DELETE',
    path: ITEM,
    auth: 'user',
    load: 'project',
    params: mrIid,
    summary: 'Delete a merge request (owners and admins)',
    handler: async ({ deps, project, params, authorize }) => {
      const mr = await findMergeRequest(deps.db, project.id, params.merge_request_iid);
      if (!mr) throw recordNotFound();
      authorize('destroy_merge_request');
      await deleteMergeRequest(deps, project, mr);
    },
  }),

  route({
    method: 'GET',
    path: `${ITEM}/participants`,
    auth: 'anonymous',
    load: 'project',
    params: mrIid,
    summary: "A merge request's participants",
    response: { schema: 'UserBasic', list: true },
    handler: async ({ ctx, deps, loaded, params }) => {
      const mr = await readableMergeRequest(deps, loaded, params.merge_request_iid);
      return paginateArray(ctx, await mergeRequestParticipants(deps.db, loaded.project, mr)).map((u) => userBasic(u, deps.urls));
    },
  }),

  route({
    method: 'GET',
    path: `${ITEM}/commits`,
    auth: 'anonymous',
    load: 'project',
    params: mrIid,
    summary: "A merge request's commits",
    response: { schema: 'Commit', list: true },
    handler: async ({ ctx, deps, loaded, params }) => {
      const mr = await readableMergeRequest(deps, loaded, params.merge_request_iid);
      return paginateArray(ctx, await mergeRequestCommits(deps, loaded.project, mr)).map(commitBasic);
    },
  }),

  route({
    method: 'GET',
    path: `${ITEM}/changes`,
    auth: 'anonymous',
    load: 'project',
    params: mrIid,
    summary: 'A merge request with its changes (diffs)',
    response: { schema: 'MergeRequestChanges' },
    handler: async ({ deps, user, loaded, params }) => {
      const mr = await readableMergeRequest(deps, loaded, params.merge_request_iid);
      const [entity] = await presentMergeRequests(deps, [mr], user);
      const diffs = await mergeRequestChanges(deps, loaded.project, mr);
      return { ...entity, changes: diffs.map(diffEntity) };
    },
  }),

  // read_pipeline on the project first, then the merge request (merge_request_pipelines_with_access):
  // 404 when it is missing, 403 when it may not be read (find_merge_request_with_access's
  // authorize!), as 10.8 answers a guest of a private project whose jobs are public.
  route({
    method: 'GET',
    path: `${ITEM}/pipelines`,
    auth: 'anonymous',
    load: 'project',
    ability: 'read_pipeline',
    params: mrIid,
    summary: "A merge request's pipelines: the source branch's pipelines of its commits, newest first",
    response: { schema: 'PipelineBasic', list: true },
    handler: async ({ ctx, deps, loaded, params }) => {
      const mr = await findMergeRequest(deps.db, loaded.project.id, params.merge_request_iid);
      if (!mr) throw recordNotFound();
      if (!can(loaded.user, mergeRequestSubject(loaded, mr), 'read_merge_request')) throw forbidden();
      const shas = await mergeRequestShas(deps, loaded.project, mr);
      const rows = await paginate<PipelineRow>(ctx, deps.db, allPipelinesQuery(deps.db, mr, shas));
      return rows.map(pipelineBasic);
    },
  }),
];
