// Merge requests (GitLab 10.8 lib/api/merge_requests.rb): the two lists, create, single,
// update, delete, and the participants, commits, changes and pipelines of one. Reading works
// anonymously where the project allows it (GET /merge_requests only with scope=all); every
// write needs a user (401). The project is resolved and the permission checked before the
// parameters; fields the user may not set (assignee, milestone, labels, discussion lock
// without admin_merge_request) are silently dropped, as GitLab's services do. A merge
// request the user may not read is a 404, one they may read but not change a 403.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { loadProject, type LoadedProject } from './loaders.js';
import { currentUser, requireUser } from '../http/auth.js';
import { forbidden, recordNotFound, unauthorized } from '../http/errors.js';
import { p, parseValues, rawParams, type Schema } from '../http/params.js';
import { paginate, paginateArray } from '../http/pagination.js';
import { optionalId, SHARED_LIST_PARAMS, sharedListFilters } from './issuable_params.js';
import {
  findMergeRequest,
  mergeRequestParticipants,
  mergeRequestsQuery,
  MR_ORDERS,
  MR_SCOPES,
  MR_STATES,
  type MergeRequestFilters,
  type MergeRequestRow,
  type MergeRequestSource,
} from '../finders/merge_requests.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import {
  canAdminMergeRequests,
  canCreateMergeRequestFrom,
  canCreateMergeRequestIn,
  canDestroyMergeRequest,
  canReadMergeRequest,
  canReadMergeRequestPipelines,
  canReadMergeRequests,
  canUpdateMergeRequest,
  mergeRequestReaders,
} from '../policy/merge_requests.js';
import { projectAccess, type ProjectAccess } from '../policy/projects.js';
import { can, projectSubject } from '../policy/can.js';
import { createMergeRequest, deleteMergeRequest, updateMergeRequest, type MergeRequestInput } from '../services/merge_requests.js';
import { presentMergeRequestList, presentMergeRequests } from '../entities/merge_request.js';
import { userBasic } from '../entities/user.js';
import { commitBasic } from '../entities/commit.js';
import { diffEntity } from '../entities/diff.js';
import { mergeRequestChanges, mergeRequestCommits } from '../services/merge_request_diff.js';

const LIST_SCHEMA = {
  // A bare `?state` lists everything, as GitLab's finder did with a blank state.
  state: p.string().values([...MR_STATES, '']).default('all'),
  order_by: p.string().values(MR_ORDERS as unknown as string[]).default('created_at'),
  view: p.string().values(['simple']),
  scope: p.string().values(MR_SCOPES as unknown as string[]),
  source_branch: p.string(),
  target_branch: p.string(),
  ...SHARED_LIST_PARAMS,
} satisfies Schema;

const OPTIONAL_FIELDS = {
  description: p.string(),
  assignee_id: optionalId(),
  milestone_id: optionalId(),
  labels: p.string(),
  remove_source_branch: p.boolean(),
  allow_maintainer_to_push: p.boolean(),
} satisfies Schema;

/** API::MergeRequests.update_params_at_least_one_of, in GitLab's order. */
const UPDATE_AT_LEAST_ONE = ['assignee_id', 'description', 'labels', 'milestone_id', 'remove_source_branch', 'state_event', 'target_branch', 'title', 'discussion_locked'];

type ListValues = ReturnType<typeof parseValues<typeof LIST_SCHEMA>>;

function filtersOf(v: ListValues & { iids?: number[] }, defaultScope: MergeRequestFilters['scope']): MergeRequestFilters {
  return {
    state: (v.state || 'all') as MergeRequestFilters['state'],
    scope: (v.scope ?? defaultScope) as MergeRequestFilters['scope'],
    orderBy: v.order_by as MergeRequestFilters['orderBy'],
    sourceBranch: v.source_branch ?? undefined,
    targetBranch: v.target_branch ?? undefined,
    ...sharedListFilters(v),
  };
}

type OptionalValues = ReturnType<typeof parseValues<typeof OPTIONAL_FIELDS>> & { discussion_locked?: boolean | null };

/**
 * IssuableBaseService#filter_params: assignee, milestone, labels and the lock only with
 * admin_merge_request on the target; an assignee who cannot read its merge requests is
 * dropped, `0` (or '') unassigns.
 */
async function inputOf(deps: Deps, user: UserRow, target: ProjectWithNamespace, access: ProjectAccess, v: OptionalValues): Promise<MergeRequestInput> {
  const input: MergeRequestInput = {};
  if (v.description !== undefined) input.description = v.description;
  if (v.allow_maintainer_to_push !== undefined && v.allow_maintainer_to_push !== null) input.allowMaintainerToPush = v.allow_maintainer_to_push;
  if (!canAdminMergeRequests(user, target, access)) return input;
  if (v.milestone_id !== undefined) input.milestoneId = v.milestone_id === 0 ? null : v.milestone_id;
  if (v.labels !== undefined) input.labels = v.labels ?? '';
  if (v.discussion_locked !== undefined) input.discussionLocked = v.discussion_locked;
  if (v.assignee_id !== undefined) {
    if (v.assignee_id === null || v.assignee_id === 0) input.assigneeId = null;
    else if ((await mergeRequestReaders(deps.db, target, [v.assignee_id])).length) input.assigneeId = v.assignee_id;
  }
  return input;
}

function iidOf(ctx: Koa.Context): number {
  return parseValues({ merge_request_iid: ctx.params.merge_request_iid }, { merge_request_iid: p.integer().required() }).merge_request_iid;
}

export function mergeRequestsRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  async function renderList(ctx: Koa.Context, user: UserRow | null, source: MergeRequestSource, filters: MergeRequestFilters, simple: boolean) {
    const rows = await paginate<MergeRequestRow>(ctx, db, mergeRequestsQuery(db, user, source, filters));
    ctx.body = await presentMergeRequestList(deps, rows, simple);
  }

  async function renderOne(row: MergeRequestRow, user: UserRow | null) {
    return (await presentMergeRequests(deps, [row], user))[0];
  }

  /** find_merge_request_with_access: the merge request of the route, readable, or 404. */
  async function readable(ctx: Koa.Context): Promise<{ loaded: LoadedProject; mr: MergeRequestRow }> {
    const loaded = await loadProject(ctx, deps);
    const mr = await findMergeRequest(db, loaded.project.id, iidOf(ctx));
    if (!mr || !canReadMergeRequest(loaded.user, loaded.project, loaded.access, mr)) throw recordNotFound();
    return { loaded, mr };
  }

  router.get('/merge_requests', async (ctx) => {
    const user = currentUser(ctx);
    const v = parseValues(rawParams(ctx), LIST_SCHEMA);
    if (!user && v.scope !== 'all') throw unauthorized();
    await renderList(ctx, user, { kind: 'all' }, filtersOf(v, 'created-by-me'), v.view === 'simple');
  });

  router.get('/projects/:id/merge_requests', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    if (!canReadMergeRequests(loaded.user, loaded.project, loaded.access)) throw forbidden();
    const v = parseValues(rawParams(ctx), { ...LIST_SCHEMA, iids: p.array(p.integer()) });
    await renderList(ctx, loaded.user, { kind: 'project', projectId: loaded.project.id }, filtersOf(v, 'all'), v.view === 'simple');
  });

  router.post('/projects/:id/merge_requests', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const source = loaded.project;
    if (!canCreateMergeRequestFrom(user, source, loaded.access)) throw forbidden();
    const v = parseValues(rawParams(ctx), {
      title: p.string().required(),
      source_branch: p.string().required(),
      target_branch: p.string().required(),
      target_project_id: p.integer(),
      ...OPTIONAL_FIELDS,
    });
    let target = source;
    let targetAccess = loaded.access;
    if (v.target_project_id !== undefined && v.target_project_id !== null && v.target_project_id !== source.id) {
      const found = await findProjectByIdOrPath(db, String(v.target_project_id));
      if (!found) throw recordNotFound();
      target = found;
      targetAccess = await projectAccess(db, user, target);
    }
    if (!canCreateMergeRequestIn(user, target, targetAccess)) throw forbidden();
    const input = await inputOf(deps, user, target, targetAccess, v);
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
      { createLabels: can(user, projectSubject(target, targetAccess), 'admin_label') },
    );
    ctx.status = 201;
    ctx.body = await renderOne(mr, user);
  });

  router.get('/projects/:id/merge_requests/:merge_request_iid', async (ctx) => {
    const { loaded, mr } = await readable(ctx);
    ctx.body = await renderOne(mr, loaded.user);
  });

  router.put('/projects/:id/merge_requests/:merge_request_iid', async (ctx) => {
    const user = requireUser(ctx);
    const { loaded, mr } = await readable(ctx);
    if (!canUpdateMergeRequest(user, loaded.project, loaded.access, mr)) throw forbidden();
    // Grape's allow_blank: false refuses null as it refuses ''.
    const raw = rawParams(ctx);
    for (const key of ['title', 'target_branch']) if (raw[key] === null) raw[key] = '';
    const v = parseValues(
      raw,
      {
        title: p.string().notBlank(),
        target_branch: p.string().notBlank(),
        state_event: p.string().values(['close', 'reopen']),
        discussion_locked: p.boolean(),
        ...OPTIONAL_FIELDS,
      },
      { atLeastOneOf: UPDATE_AT_LEAST_ONE },
    );
    const input = await inputOf(deps, user, loaded.project, loaded.access, v);
    if (v.title !== undefined && v.title !== null) input.title = v.title;
    if (v.target_branch !== undefined && v.target_branch !== null) input.targetBranch = v.target_branch;
    if (v.state_event) input.stateEvent = v.state_event as 'close' | 'reopen';
    // `remove_source_branch` counts only when true (the API checks `.present?`).
    if (v.remove_source_branch) input.forceRemoveSourceBranch = true;
    const updated = await updateMergeRequest(deps, loaded.project, mr, user, input, {
      createLabels: can(user, loaded.subject, 'admin_label'),
    });
    ctx.body = await renderOne(updated, user);
  });

  router.delete('/projects/:id/merge_requests/:merge_request_iid', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const mr = await findMergeRequest(db, loaded.project.id, iidOf(ctx));
    if (!mr) throw recordNotFound();
    if (!canDestroyMergeRequest(user, loaded.project, loaded.access)) throw forbidden();
    await deleteMergeRequest(deps, loaded.project, mr);
    ctx.status = 204;
  });

  router.get('/projects/:id/merge_requests/:merge_request_iid/participants', async (ctx) => {
    const { loaded, mr } = await readable(ctx);
    const list = await mergeRequestParticipants(db, loaded.project, mr);
    ctx.body = paginateArray(ctx, list).map((u) => userBasic(u, deps.urls));
  });

  router.get('/projects/:id/merge_requests/:merge_request_iid/commits', async (ctx) => {
    const { loaded, mr } = await readable(ctx);
    const commits = await mergeRequestCommits(deps, loaded.project, mr);
    ctx.body = paginateArray(ctx, commits).map(commitBasic);
  });

  router.get('/projects/:id/merge_requests/:merge_request_iid/changes', async (ctx) => {
    const { loaded, mr } = await readable(ctx);
    const [entity] = await presentMergeRequests(deps, [mr], loaded.user);
    const diffs = await mergeRequestChanges(deps, loaded.project, mr);
    ctx.body = { ...entity, changes: diffs.map(diffEntity) };
  });

  router.get('/projects/:id/merge_requests/:merge_request_iid/pipelines', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    if (!canReadMergeRequestPipelines(loaded.user, loaded.project, loaded.access)) throw forbidden();
    await readable(ctx);
    // No pipelines exist yet.
    ctx.body = paginateArray(ctx, []);
  });

  return router;
}
