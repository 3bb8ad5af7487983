// Activity events (GitLab 10.8 lib/api/events.rb): the signed-in user's own events
// (`GET /events`, 401 without a user), a user's contribution events by id or username
// (`GET /users/:id/events`, anonymous allowed, "404 User Not Found"), and a project's
// (`GET /projects/:id/events`). All three take `action`, `target_type` (lower case; anything
// else is a 400 "does not have a valid value"), `before`/`after` (dates, exclusive) and
// `sort` (asc|desc by created_at, default desc), and are paginated. Only events the viewer
// may see are listed (src/policy/events.ts).
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { currentUser, requireUser } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { p, parseValues, rawParams, type Schema } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { findUserByIdOrUsername } from '../finders/users.js';
import { EVENT_ACTION_NAMES, EVENT_TARGET_TYPES, eventsQuery, loadEventExtras, type EventRow, type EventSource } from '../finders/events.js';
import { eventEntity } from '../entities/event.js';
import { loadProject } from './loaders.js';

const FILTERS = {
  action: p.string().values(EVENT_ACTION_NAMES as string[]),
  target_type: p.string().values(Object.keys(EVENT_TARGET_TYPES)),
  before: p.date(),
  after: p.date(),
  sort: p.string().values(['asc', 'desc']).default('desc'),
} satisfies Schema;

export function eventsRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  async function render(ctx: Koa.Context, viewer: UserRow | null, source: EventSource) {
    const v = parseValues(rawParams(ctx), FILTERS);
    const query = eventsQuery(db, viewer, source, {
      action: v.action ?? undefined,
      targetType: v.target_type ?? undefined,
      before: v.before ?? undefined,
      after: v.after ?? undefined,
      sort: v.sort as 'asc' | 'desc',
    });
    const rows = await paginate<EventRow>(ctx, db, query);
    const extras = await loadEventExtras(db, rows);
    ctx.body = rows.map((row) => eventEntity(row, extras, deps.urls));
  }

  router.get('/events', async (ctx) => {
    const user = requireUser(ctx);
    await render(ctx, user, { kind: 'user', userId: user.id });
  });

  router.get('/users/:id/events', async (ctx) => {
    const subject = await findUserByIdOrUsername(db, String(ctx.params.id));
    if (!subject) throw notFound('User');
    await render(ctx, currentUser(ctx), { kind: 'user', userId: subject.id });
  });

  router.get('/projects/:id/events', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    await render(ctx, loaded.user, { kind: 'project', projectId: loaded.project.id });
  });

  return router;
}
