// Subscriptions and time tracking of issues and merge requests (GitLab 10.8
// lib/api/subscriptions.rb and lib/api/time_tracking_endpoints.rb). Every route needs a
// signed-in user; the route table loads the project and parses the parameters first.
// - subscribe/unsubscribe (`:subscribable_id` is the iid, a String in 10.8: anything else
//   finds nothing): 201 with the issue or merge request entity, or 304 (empty body) when
//   already in that state. A missing or unreadable issue is `404 Not found`; a merge request
//   needs update_merge_request (403), as in 10.8.
// - time_estimate (200), reset_time_estimate (200), add_spent_time (201), reset_spent_time
//   (200) need update_issue / update_merge_request (403); time_stats needs read (403 for a
//   merge request the finder shows). A bad duration is GitLab's model error.
// (The todo of an issue or merge request is the todos family's, api/todos.ts.)
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { ApiError, forbidden, recordNotFound, validationError } from '../http/errors.js';
import { p, type Param } from '../http/params.js';
import { findNoteable, iidParamName, NOTEABLE_KINDS, type Noteable, type NoteableKind } from './noteables.js';
import { can } from '../policy/can.js';
import { setSubscription, subscribedTo } from '../services/issuables/subscriptions.js';
import { parseDuration, setTimeEstimate, spendTime, timeStatsEntity } from '../services/issuables/time_tracking.js';
import { loadIssueExtras } from '../finders/issues.js';
import { issueEntity } from '../entities/issue.js';
import { presentMergeRequests } from './present_merge_requests.js';
import { storableId } from '../store/stored_values.js';

const TIME_STATS = { schema: 'IssuableTimeStats' } as const;

function notModified(): ApiError {
  return new ApiError(304, { message: '304 Not Modified' });
}

function subscribableOf(n: Noteable) {
  return { type: n.type, id: n.id, authorId: n.authorId, assigneeIds: n.assigneeIds, title: n.title, description: n.description };
}

function targetOf(n: Noteable) {
  return { type: n.type, id: n.id, projectId: n.projectId };
}

/**
 * The route's issue or merge request as GitLab's finders give it: `404 Not found` when
 * missing, for an issue the user may not read, and with merge requests disabled.
 */
async function resolve(deps: Deps, loaded: LoadedProject, kind: NoteableKind, iid: number): Promise<Noteable> {
  const noteable = await findNoteable(deps, loaded, kind, iid);
  if (!noteable) throw recordNotFound();
  if (!noteable.readable && (kind === 'issues' || !loaded.project.merge_requests_enabled)) throw recordNotFound();
  return noteable;
}

/** The noteable, which the user may update (update_issue / update_merge_request), or 403. */
async function updatable(deps: Deps, loaded: LoadedProject, kind: NoteableKind, iid: number): Promise<Noteable> {
  const noteable = await resolve(deps, loaded, kind, iid);
  if (!noteable.updatable) throw forbidden();
  return noteable;
}

async function present(deps: Deps, n: Noteable, user: UserRow): Promise<unknown> {
  if (n.issue) {
    const extras = await loadIssueExtras(deps.db, [n.issue]);
    return issueEntity(n.issue, extras, deps.urls, await subscribedTo(deps.db, user, subscribableOf(n)));
  }
  return (await presentMergeRequests(deps, [n.mergeRequest!], user))[0];
}

function subscriptionRoute(kind: NoteableKind, wanted: boolean): Route {
  const action = wanted ? 'subscribe' : 'unsubscribe';
  return route({
    method: 'POST',
    path: `/projects/:id/${kind}/:subscribable_id/${action}`,
    auth: 'user',
    load: 'project',
    summary: `${wanted ? 'Subscribe to' : 'Unsubscribe from'} ${kind === 'issues' ? 'an issue' : 'a merge request'} (by iid)`,
    response: { schema: kind === 'issues' ? 'Issue' : 'MergeRequest' },
    handler: async ({ deps, user, loaded, path }) => {
      const iid = storableId(path.subscribable_id);
      if (iid === null) throw recordNotFound();
      const noteable = await resolve(deps, loaded, kind, iid);
      // 10.8 asks read_issue of an issue, update_merge_request of a merge request.
      const allowed = noteable.subject.kind === 'issue' ? can(user, noteable.subject, 'read_issue') : can(user, noteable.subject, 'update_merge_request');
      if (!allowed) throw forbidden();
      if ((await subscribedTo(deps.db, user, subscribableOf(noteable))) === wanted) throw notModified();
      await setSubscription(deps.db, user.id, loaded.project.id, noteable.type, noteable.id, wanted);
      return present(deps, noteable, user);
    },
  });
}

function timeTrackingRoutes(kind: NoteableKind): Route[] {
  const iidName = iidParamName(kind);
  const base = `/projects/:id/${kind}/:${iidName}`;
  const iid: Record<string, Param<number, true>> = { [iidName]: p.integer().required() };
  const withDuration = { ...iid, duration: p.string().required() } as typeof iid & { duration: Param<string, true> };
  const iidOf = (params: Record<string, unknown>) => params[iidName] as number;
  const what = kind === 'issues' ? 'an issue' : 'a merge request';
  return [
    route({
      method: 'POST',
      path: `${base}/time_estimate`,
      auth: 'user',
      load: 'project',
      params: withDuration,
      status: 200,
      summary: `Set the time estimate of ${what} (a duration such as 3h30m)`,
      response: TIME_STATS,
      handler: async ({ deps, user, loaded, params }) => {
        const noteable = await updatable(deps, loaded, kind, iidOf(params));
        const seconds = parseDuration(params.duration);
        if (seconds === null) throw validationError({ time_estimate: ['has an invalid format'] });
        return setTimeEstimate(deps.db, targetOf(noteable), user, seconds);
      },
    }),

    route({
      method: 'POST',
      path: `${base}/reset_time_estimate`,
      auth: 'user',
      load: 'project',
      params: iid,
      status: 200,
      summary: `Reset the time estimate of ${what}`,
      response: TIME_STATS,
      handler: async ({ deps, user, loaded, params }) => setTimeEstimate(deps.db, targetOf(await updatable(deps, loaded, kind, iidOf(params))), user, 0),
    }),

    route({
      method: 'POST',
      path: `${base}/add_spent_time`,
      auth: 'user',
      load: 'project',
      params: withDuration,
      summary: `Add time spent on ${what}`,
      response: TIME_STATS,
      handler: async ({ deps, user, loaded, params }) => {
        const noteable = await updatable(deps, loaded, kind, iidOf(params));
        const seconds = parseDuration(params.duration);
        if (seconds === null) throw validationError({ timelogs: ['is invalid'] });
        const result = await spendTime(deps.db, targetOf(noteable), user, seconds);
        if (result.errors) throw validationError(result.errors);
        return result.stats;
      },
    }),

    route({
      method: 'POST',
      path: `${base}/reset_spent_time`,
      auth: 'user',
      load: 'project',
      params: iid,
      status: 200,
      summary: `Reset the time spent on ${what}`,
      response: TIME_STATS,
      handler: async ({ deps, user, loaded, params }) => (await spendTime(deps.db, targetOf(await updatable(deps, loaded, kind, iidOf(params))), user, 'reset')).stats,
    }),

    route({
      method: 'GET',
      path: `${base}/time_stats`,
      auth: 'user',
      load: 'project',
      params: iid,
      summary: `The time stats of ${what}`,
      response: TIME_STATS,
      handler: async ({ deps, loaded, params }) => {
        const noteable = await resolve(deps, loaded, kind, iidOf(params));
        if (!noteable.readable) throw forbidden();
        return timeStatsEntity({ time_estimate: noteable.timeEstimate, total_time_spent: noteable.totalTimeSpent });
      },
    }),
  ];
}

export const issuableSocialRoutes: Route[] = NOTEABLE_KINDS.flatMap((kind) => [subscriptionRoute(kind, true), subscriptionRoute(kind, false), ...timeTrackingRoutes(kind)]);
