// Subscriptions and time tracking of issues and merge requests (GitLab 10.8
// lib/api/subscriptions.rb and lib/api/time_tracking_endpoints.rb). Every route needs a
// signed-in user.
// - subscribe/unsubscribe (`:subscribable_id` is the iid): 201 with the issue or merge
//   request entity, or 304 (empty body) when already in that state. A missing or unreadable
//   issue is `404 Not found`; a merge request needs update_merge_request (403), as in 10.8.
// - time_estimate (200), reset_time_estimate (200), add_spent_time (201), reset_spent_time
//   (200) need update_issue / update_merge_request (403); time_stats needs read (403 for a
//   merge request the finder shows). A bad duration is GitLab's model error.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { loadProject, type LoadedProject } from './loaders.js';
import { requireUser } from '../http/auth.js';
import { ApiError, forbidden, recordNotFound, validationError } from '../http/errors.js';
import { p, parseValues, rawParams } from '../http/params.js';
import { findNoteable, iidParamName, intParam, NOTEABLE_KINDS, type Noteable, type NoteableKind } from './noteables.js';
import { setSubscription, subscribedTo } from '../services/subscriptions.js';
import { parseDuration, setTimeEstimate, spendTime, timeStatsEntity } from '../services/time_tracking.js';
import { loadIssueExtras, findIssue } from '../finders/issues.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import { issueEntity } from '../entities/issue.js';
import { presentMergeRequests } from '../entities/merge_request.js';

interface Resolved {
  user: UserRow;
  loaded: LoadedProject;
  noteable: Noteable;
}

function notModified(): ApiError {
  return new ApiError(304, { message: '304 Not Modified' });
}

function subscribableOf(n: Noteable) {
  return { type: n.type, id: n.id, authorId: n.authorId, assigneeIds: n.assigneeIds, title: n.title, description: n.description };
}

function targetOf(n: Noteable) {
  return { type: n.type, id: n.id, projectId: n.projectId };
}

export function issuableSocialRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  /**
   * The route's issue or merge request as GitLab's finders give it: `404 Not found` when
   * missing, for an issue the user may not read, and with merge requests disabled.
   */
  async function resolve(ctx: Koa.Context, kind: NoteableKind, iid: number): Promise<Resolved> {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const noteable = await findNoteable(deps, loaded, user, kind, iid);
    if (!noteable) throw recordNotFound();
    if (!noteable.readable && (kind === 'issues' || !loaded.project.merge_requests_enabled)) throw recordNotFound();
    return { user, loaded, noteable };
  }

  async function present(n: Noteable, user: UserRow): Promise<unknown> {
    if (n.type === 'Issue') {
      const row = (await findIssue(db, n.projectId, n.iid))!;
      const extras = await loadIssueExtras(db, [row]);
      return issueEntity(row, extras, deps.urls, await subscribedTo(db, user, subscribableOf(n)));
    }
    const row = (await findMergeRequest(db, n.projectId, n.iid))!;
    return (await presentMergeRequests(deps, [row], user))[0];
  }

  for (const kind of NOTEABLE_KINDS) {
    for (const [action, wanted] of [['subscribe', true], ['unsubscribe', false]] as const) {
      router.post(`/projects/:id/${kind}/:subscribable_id/${action}`, async (ctx) => {
        const raw = String(ctx.params.subscribable_id);
        // A String parameter in 10.8: anything but an iid finds nothing.
        if (!/^\d{1,15}$/.test(raw)) {
          requireUser(ctx);
          await loadProject(ctx, deps);
          throw recordNotFound();
        }
        const { user, loaded, noteable } = await resolve(ctx, kind, Number(raw));
        if (kind === 'issues' ? !noteable.readable : !noteable.updatable) throw forbidden();
        if ((await subscribedTo(db, user, subscribableOf(noteable))) === wanted) throw notModified();
        await setSubscription(db, user.id, loaded.project.id, noteable.type, noteable.id, wanted);
        ctx.status = 201;
        ctx.body = await present(noteable, user);
      });
    }

    const base = `/projects/:id/${kind}/:iid`;
    const iidOf = (ctx: Koa.Context) => intParam(ctx, 'iid', iidParamName(kind));

    async function updatable(ctx: Koa.Context): Promise<Resolved> {
      const r = await resolve(ctx, kind, iidOf(ctx));
      if (!r.noteable.updatable) throw forbidden();
      return r;
    }

    function duration(ctx: Koa.Context): number | null {
      return parseDuration(parseValues(rawParams(ctx), { duration: p.string().required() }).duration);
    }

    router.post(`${base}/time_estimate`, async (ctx) => {
      const { user, noteable } = await updatable(ctx);
      const seconds = duration(ctx);
      if (seconds === null) throw validationError({ time_estimate: ['has an invalid format'] });
      ctx.body = await setTimeEstimate(db, targetOf(noteable), user, seconds);
    });

    router.post(`${base}/reset_time_estimate`, async (ctx) => {
      const { user, noteable } = await updatable(ctx);
      ctx.body = await setTimeEstimate(db, targetOf(noteable), user, 0);
    });

    router.post(`${base}/add_spent_time`, async (ctx) => {
      const { user, noteable } = await updatable(ctx);
      const seconds = duration(ctx);
      if (seconds === null) throw validationError({ timelogs: ['is invalid'] });
      const result = await spendTime(db, targetOf(noteable), user, seconds);
      if (result.errors) throw validationError(result.errors);
      ctx.status = 201;
      ctx.body = result.stats;
    });

    router.post(`${base}/reset_spent_time`, async (ctx) => {
      const { user, noteable } = await updatable(ctx);
      const result = await spendTime(db, targetOf(noteable), user, 'reset');
      ctx.body = result.stats;
    });

    router.get(`${base}/time_stats`, async (ctx) => {
      const { noteable } = await resolve(ctx, kind, iidOf(ctx));
      if (!noteable.readable) throw forbidden();
      ctx.body = timeStatsEntity({ time_estimate: noteable.timeEstimate, total_time_spent: noteable.totalTimeSpent });
    });
  }

  return router;
}
