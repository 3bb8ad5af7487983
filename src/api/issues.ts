// Issues (GitLab 10.8 lib/api/issues.rb): the three lists, and single/create/edit/delete of a
// project issue. Every route needs a signed-in user (401, even on public projects). The
// project (or group) is resolved and the permission checked before the parameters; fields
// the user may not set are silently dropped, as GitLab's services do.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { loadGroup, loadProject, type LoadedProject } from './loaders.js';
import { requireUser } from '../http/auth.js';
import { forbidden, notFound, recordNotFound } from '../http/errors.js';
import { coerceDate, coerceInteger, p, Param, parseValues, rawParams, type Schema } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { optionalId, SHARED_LIST_PARAMS, sharedListFilters } from './issuable_params.js';
import { issueBasic, issueEntity } from '../entities/issue.js';
import {
  assigneeIdsOf,
  findIssue,
  issuesQuery,
  ISSUE_ORDERS,
  ISSUE_SCOPES,
  ISSUE_STATES,
  loadIssueExtras,
  type IssueFilters,
  type IssueRow,
  type IssueSource,
} from '../finders/issues.js';
import {
  canAdminIssues,
  canCreateIssue,
  canDestroyIssue,
  canReadIssue,
  canReadIssues,
  canSetIssueTimestamps,
  canUpdateIssue,
  issueReaders,
} from '../policy/issues.js';
import { createIssue, deleteIssue, updateIssue, type IssueInput } from '../services/issues.js';
import { can } from '../policy/can.js';
import { canReadMergeRequest } from '../policy/merge_requests.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import { subscribedTo } from '../services/subscriptions.js';

/** Integers as an array or one value; '' (or an empty array) is the empty list. */
const idList = () =>
  new Param<number[]>((raw) => {
    const list = Array.isArray(raw) ? raw : [raw];
    return list.filter((v) => v !== '' && v !== null).map((v) => coerceInteger(v));
  });

/** GitLab takes due_date as a string and Rails casts what is not a date to nil. */
const looseDate = () =>
  new Param<string | null>((raw) => {
    try {
      return coerceDate(raw);
    } catch {
      return null;
    }
  });

const LIST_SCHEMA = {
  state: p.string().values(ISSUE_STATES as unknown as string[]).default('all'),
  order_by: p.string().values(ISSUE_ORDERS as unknown as string[]).default('created_at'),
  iids: p.array(p.integer()),
  scope: p.string().values(ISSUE_SCOPES as unknown as string[]),
  ...SHARED_LIST_PARAMS,
} satisfies Schema;

const EDIT_FIELDS = {
  description: p.string(),
  assignee_ids: idList(),
  assignee_id: optionalId(),
  milestone_id: optionalId(),
  labels: p.string(),
  due_date: looseDate(),
  confidential: p.boolean(),
  discussion_locked: p.boolean(),
} satisfies Schema;

function filtersOf(v: ReturnType<typeof parseValues<typeof LIST_SCHEMA>>, defaultScope: IssueFilters['scope']): IssueFilters {
  return {
    state: v.state as IssueFilters['state'],
    scope: (v.scope ?? defaultScope) as IssueFilters['scope'],
    orderBy: v.order_by as IssueFilters['orderBy'],
    ...sharedListFilters(v),
  };
}

type EditValues = ReturnType<typeof parseValues<typeof EDIT_FIELDS>>;

/**
 * The input a user may give: privileged fields only with admin_issue; assignees cut to the
 * first (CE), `0` unassigning, readers only (none readable: left untouched).
 */
async function inputOf(deps: Deps, loaded: LoadedProject, v: EditValues): Promise<IssueInput> {
  const input: IssueInput = {};
  if (v.description !== undefined) input.description = v.description;
  if (v.confidential !== undefined && v.confidential !== null) input.confidential = v.confidential;
  if (!canAdminIssues(loaded.user, loaded.project, loaded.access)) return input;
  if (v.milestone_id !== undefined) input.milestoneId = v.milestone_id === 0 ? null : v.milestone_id;
  if (v.labels !== undefined) input.labels = v.labels ?? '';
  if (v.due_date !== undefined) input.dueDate = v.due_date;
  if (v.discussion_locked !== undefined) input.discussionLocked = v.discussion_locked;
  // The deprecated assignee_id replaces assignee_ids when given.
  let ids: number[] | undefined = v.assignee_ids ?? undefined;
  if (v.assignee_id !== undefined) ids = v.assignee_id === null ? [] : [v.assignee_id];
  if (ids !== undefined) {
    const first = ids.slice(0, 1);
    if (first.length === 0 || first[0] === 0) input.assigneeIds = [];
    else {
      const readable = await issueReaders(deps.db, loaded.project, first);
      if (readable.length) input.assigneeIds = readable;
    }
  }
  return input;
}

/**
 * The description of a follow-up issue for a merge request the user can read (GitLab's
 * Issues::BuildService): it lists the merge request's unresolved discussions. Notes here are
 * never resolvable, so there are none, whichever `discussion_to_resolve` is named; an
 * unknown or unreadable merge request is ignored, as the finder's nil is.
 */
async function followUpDescription(deps: Deps, loaded: LoadedProject, mrIid: number): Promise<string | null> {
  const mr = await findMergeRequest(deps.db, loaded.project.id, mrIid);
  if (!mr || !canReadMergeRequest(loaded.user, loaded.project, loaded.access, mr)) return null;
  return `There are no unresolved discussions. Review the conversation in !${mr.iid}`;
}

function iidOf(ctx: Koa.Context): number {
  return parseValues({ issue_iid: ctx.params.issue_iid }, { issue_iid: p.integer().required() }).issue_iid;
}

export function issuesRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  async function renderList(ctx: Koa.Context, user: UserRow, source: IssueSource, filters: IssueFilters, empty = false) {
    const query = issuesQuery(db, user, source, filters);
    if (empty) query.whereRaw('1 = 0');
    const rows = await paginate<IssueRow>(ctx, db, query);
    const extras = await loadIssueExtras(db, rows);
    ctx.body = rows.map((row) => issueBasic(row, extras, deps.urls));
  }

  async function renderOne(row: IssueRow, user: UserRow) {
    const extras = await loadIssueExtras(db, [row]);
    const assignees = extras.assignees.get(row.id) ?? [];
    const subscribed = await subscribedTo(db, user, { type: 'Issue', id: row.id, authorId: row.author_id, assigneeIds: assignees, title: row.title, description: row.description });
    return issueEntity(row, extras, deps.urls, subscribed);
  }

  router.get('/issues', async (ctx) => {
    const user = requireUser(ctx);
    const v = parseValues(rawParams(ctx), LIST_SCHEMA);
    await renderList(ctx, user, { kind: 'all' }, filtersOf(v, 'created-by-me'));
  });

  router.get('/groups/:id/issues', async (ctx) => {
    const user = requireUser(ctx);
    const group = await loadGroup(ctx, deps);
    const v = parseValues(rawParams(ctx), LIST_SCHEMA);
    await renderList(ctx, user, { kind: 'group', group }, filtersOf(v, 'all'));
  });

  router.get('/projects/:id/issues', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const v = parseValues(rawParams(ctx), LIST_SCHEMA);
    const source: IssueSource = { kind: 'project', projectId: loaded.project.id, access: loaded.access };
    await renderList(ctx, user, source, filtersOf(v, 'all'), !canReadIssues(user, loaded.project, loaded.access));
  });

  router.get('/projects/:id/issues/:issue_iid', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const iid = iidOf(ctx);
    const issue = await findIssue(db, loaded.project.id, iid);
    if (!issue || !canReadIssue(user, loaded.project, loaded.access, { ...issue, assigneeIds: await assigneeIdsOf(db, issue.id) })) {
      throw recordNotFound();
    }
    ctx.body = await renderOne(issue, user);
  });

  router.post('/projects/:id/issues', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    if (!canCreateIssue(user, loaded.project, loaded.access)) throw forbidden();
    const v = parseValues(rawParams(ctx), {
      title: p.string().required(),
      created_at: p.datetime(),
      merge_request_to_resolve_discussions_of: p.integer(),
      discussion_to_resolve: p.string(),
      ...EDIT_FIELDS,
    });
    const input = await inputOf(deps, loaded, v);
    input.title = v.title;
    if (v.created_at && canSetIssueTimestamps(user, loaded.access)) input.createdAt = v.created_at;
    if (v.description === undefined && v.merge_request_to_resolve_discussions_of != null) {
      const description = await followUpDescription(deps, loaded, v.merge_request_to_resolve_discussions_of);
      if (description) input.description = description;
    }
    const issue = await createIssue(db, loaded.project.id, user, input, { createLabels: can(user, loaded.subject, 'admin_label') });
    ctx.status = 201;
    ctx.body = await renderOne(issue, user);
  });

  router.put('/projects/:id/issues/:issue_iid', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const issue = await findIssue(db, loaded.project.id, iidOf(ctx));
    if (!issue) throw recordNotFound();
    const facts = { ...issue, assigneeIds: await assigneeIdsOf(db, issue.id) };
    // A confidential issue the user may not read does not exist for them (10.8 said 403 here,
    // which told them it did).
    if (!canReadIssue(user, loaded.project, loaded.access, facts)) throw recordNotFound();
    if (!canUpdateIssue(user, loaded.project, loaded.access, facts)) throw forbidden();
    const v = parseValues(
      rawParams(ctx),
      { title: p.string(), updated_at: p.datetime(), state_event: p.string().values(['reopen', 'close']), ...EDIT_FIELDS },
      {
        atLeastOneOf: ['title', 'description', 'assignee_ids', 'assignee_id', 'milestone_id', 'discussion_locked', 'labels', 'created_at', 'due_date', 'confidential', 'state_event'],
      },
    );
    const input = await inputOf(deps, loaded, v);
    if (v.title !== undefined && v.title !== null) input.title = v.title;
    if (v.state_event) input.stateEvent = v.state_event as 'close' | 'reopen';
    if (v.updated_at && canSetIssueTimestamps(user, loaded.access)) input.updatedAt = v.updated_at;
    const updated = await updateIssue(db, issue, user, input, { createLabels: can(user, loaded.subject, 'admin_label') });
    ctx.body = await renderOne(updated, user);
  });

  router.delete('/projects/:id/issues/:issue_iid', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const issue = await findIssue(db, loaded.project.id, iidOf(ctx));
    if (!issue) throw notFound('Issue');
    if (!canDestroyIssue(user, loaded.project, loaded.access)) throw forbidden();
    await deleteIssue(db, issue);
    ctx.status = 204;
  });

  return router;
}
