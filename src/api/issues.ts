// Issues (GitLab 10.8 lib/api/issues.rb): the three lists, and single/create/edit/delete of a
// project issue. Every route needs a signed-in user (401, even on public projects). The route
// table resolves the project (or group), checks the route's ability and parses the
// parameters (the iid included) before the issue is looked up, as Grape validates before the
// endpoint runs; fields the user may not set are silently dropped, as GitLab's services do
// (api/issue_params.ts).
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { forbidden, notFound, paramError, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { ISSUE_EDIT_PARAMS, ISSUE_LIST_PARAMS, issueFiltersOf, issueInputOf } from './issue_params.js';
import { followUpOf, resolveFollowUp } from './issue_follow_up.js';
import { recordUserAgent } from '../services/issuables/user_agent_details.js';
import { issueSubject } from './noteables.js';
import { issueBasic, issueEntity } from '../entities/issue.js';
import { findIssue, issuesQuery, loadIssueExtras, type IssueFilters, type IssueSource } from '../finders/issues.js';
import type { IssueRow } from '../store/issuable_rows.js';
import { can } from '../policy/can.js';
import { createIssue, deleteIssue, updateIssue } from '../services/issues/issues.js';
import { subscribedTo } from '../services/issuables/subscriptions.js';
import { ISSUABLE_LIST_TOPICS } from '../store/count_cache.js';
import { cachedPage } from './core/page_cache.js';

const ISSUE = { schema: 'Issue' } as const;
const ISSUE_LIST = { schema: 'IssueBasic', list: true } as const;
const ITEM = '/projects/:id/issues/:issue_iid';
const issueIid = { issue_iid: p.integer().required() };

/** A page of issues, kept rendered while nothing it shows changed (core/page_cache.ts). */
async function renderList(ctx: Koa.Context, deps: Deps, user: UserRow, source: IssueSource, filters: IssueFilters, empty = false) {
  return cachedPage(ctx, deps, user, ISSUABLE_LIST_TOPICS, async () => {
    const query = issuesQuery(deps.db, user, source, filters);
    if (empty) query.whereRaw('1 = 0');
    const rows = await paginate<IssueRow>(ctx, deps.db, query);
    const extras = await loadIssueExtras(deps.db, rows);
    return rows.map((row) => issueBasic(row, extras, deps.urls));
  });
}

export async function renderOne(deps: Deps, row: IssueRow, user: UserRow) {
  const extras = await loadIssueExtras(deps.db, [row]);
  const assignees = extras.assignees.get(row.id) ?? [];
  const subscribable = { type: 'Issue' as const, id: row.id, authorId: row.author_id, assigneeIds: assignees, title: row.title, description: row.description };
  return issueEntity(row, extras, deps.urls, await subscribedTo(deps.db, user, subscribable));
}

/** The issue of the route, which the user may read; `404 Not found` otherwise (the finder hides it). */
export async function readableIssue(deps: Deps, loaded: LoadedProject, iid: number) {
  const issue = await findIssue(deps.db, loaded.project.id, iid);
  if (!issue) throw recordNotFound();
  const subject = await issueSubject(deps, loaded, issue);
  if (!can(loaded.user, subject, 'read_issue')) throw recordNotFound();
  return { issue, subject };
}

const STATE_EVENTS = ['reopen', 'close'];

export const issueRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/issues',
    auth: 'user',
    params: ISSUE_LIST_PARAMS,
    summary: 'List the issues the user may see (scope created-by-me by default)',
    response: ISSUE_LIST,
    handler: async ({ ctx, deps, user, params }) => renderList(ctx, deps, user, { kind: 'all' }, issueFiltersOf(params, 'created-by-me')),
  }),

  route({
    method: 'GET',
    path: '/groups/:id/issues',
    auth: 'user',
    load: 'group',
    params: ISSUE_LIST_PARAMS,
    summary: "List a group's issues",
    response: ISSUE_LIST,
    handler: async ({ ctx, deps, user, group, params }) => renderList(ctx, deps, user, { kind: 'group', group }, issueFiltersOf(params, 'all')),
  }),

  // No ability on the route: one who may not read the project's issues gets an empty list.
  route({
    method: 'GET',
    path: '/projects/:id/issues',
    auth: 'user',
    load: 'project',
    params: ISSUE_LIST_PARAMS,
    summary: "List a project's issues",
    response: ISSUE_LIST,
    handler: async ({ ctx, deps, user, project, access, params, can: canOnProject }) => {
      const source: IssueSource = { kind: 'project', projectId: project.id, access };
      return renderList(ctx, deps, user, source, issueFiltersOf(params, 'all'), !canOnProject('read_issue'));
    },
  }),

  route({
    method: 'GET',
    path: ITEM,
    auth: 'user',
    load: 'project',
    params: issueIid,
    summary: 'Get a project issue',
    response: ISSUE,
    handler: async ({ deps, user, loaded, params }) => renderOne(deps, (await readableIssue(deps, loaded, params.issue_iid)).issue, user),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/issues',
    auth: 'user',
    load: 'project',
    ability: 'create_issue',
    params: {
      title: p.string().required(),
      created_at: p.datetime(),
      merge_request_to_resolve_discussions_of: p.integer(),
      discussion_to_resolve: p.string(),
      ...ISSUE_EDIT_PARAMS,
    },
    summary: 'Create an issue',
    response: ISSUE,
    handler: async ({ ctx, deps, user, project, loaded, params: v, can: canOnProject }) => {
      const input = await issueInputOf(deps, loaded, v);
      input.title = v.title;
      if (v.created_at && canOnProject('set_issue_created_at')) input.createdAt = v.created_at;
      const mrIid = v.merge_request_to_resolve_discussions_of;
      const followUp = mrIid != null ? await followUpOf(deps, loaded, mrIid, v.discussion_to_resolve) : null;
      if (v.description === undefined && followUp) input.description = followUp.description;
      const userAgent = ctx.get('user-agent');
      const issue = await createIssue(deps.db, project.id, user, input, {
        createLabels: canOnProject('admin_label'),
        after: async (tx, created) => {
          await recordUserAgent(tx, { type: 'Issue', id: created.id }, userAgent, ctx.ip);
          if (followUp) await resolveFollowUp(tx, loaded, followUp, user, created.iid);
        },
      });
      return renderOne(deps, issue, user);
    },
  }),

  // A confidential issue the user may not read does not exist for them (10.8 said 403 here,
  // which told them it did); one they read but may not edit is a 403.
  route({
    method: 'PUT',
    path: ITEM,
    auth: 'user',
    load: 'project',
    // state_event's values are checked after update_issue (an ability of the issue, so asked
    // once it is found): a member who may not edit it hears 403 first, as on every route.
    params: { ...issueIid, title: p.string(), updated_at: p.datetime(), state_event: p.string(), ...ISSUE_EDIT_PARAMS },
    rules: {
      atLeastOneOf: ['title', 'description', 'assignee_ids', 'assignee_id', 'milestone_id', 'discussion_locked', 'labels', 'created_at', 'due_date', 'confidential', 'state_event'],
      atLeastOneOfLater: ['add_labels', 'remove_labels'],
    },
    summary: 'Edit an issue (state_event close/reopen)',
    response: ISSUE,
    handler: async ({ deps, user, loaded, params: v, can: canOnProject }) => {
      const { issue, subject } = await readableIssue(deps, loaded, v.issue_iid);
      if (!can(user, subject, 'update_issue')) throw forbidden();
      if (v.state_event != null && !STATE_EVENTS.includes(v.state_event)) throw paramError('state_event does not have a valid value');
      const input = await issueInputOf(deps, loaded, v);
      if (v.title !== undefined && v.title !== null) input.title = v.title;
      if (v.state_event) input.stateEvent = v.state_event as 'close' | 'reopen';
      if (v.updated_at && canOnProject('set_issue_updated_at')) input.updatedAt = v.updated_at;
      const updated = await updateIssue(deps.db, issue, user, input, { createLabels: canOnProject('admin_label') });
      return renderOne(deps, updated, user);
    },
  }),

  // 10.8 looks the issue up first (`404 Issue Not Found`), then asks destroy_issue of it.
  route({
    method: 'DELETE',
    path: ITEM,
    auth: 'user',
    load: 'project',
    params: issueIid,
    summary: 'Delete an issue (owners and admins)',
    handler: async ({ deps, project, params, authorize }) => {
      const issue = await findIssue(deps.db, project.id, params.issue_iid);
      if (!issue) throw notFound('Issue');
      authorize('destroy_issue');
      await deleteIssue(deps.db, issue);
    },
  }),
];
