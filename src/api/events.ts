// Activity events (GitLab 10.8 lib/api/events.rb): the signed-in user's own events
// (`GET /events`, 401 without a user), a user's contribution events by id or username
// (`GET /users/:id/events`, anonymous allowed, "404 User Not Found"), and a project's
// (`GET /projects/:id/events`). All three take `action`, `target_type` (lower case; anything
// else is a 400 "does not have a valid value"), `before`/`after` (dates, exclusive) and
// `sort` (asc|desc by created_at, default desc), and are paginated. Only events the viewer
// may see are listed (src/policy/events.ts).
import type Koa from 'koa';
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { notFound } from '../http/errors.js';
import { p, type Parsed, type Schema } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { findUserByIdOrUsername } from '../finders/users.js';
import { EVENT_ACTION_NAMES, EVENT_TARGET_TYPES, eventsQuery, loadEventExtras, type EventSource } from '../finders/events.js';
import type { EventRow } from '../store/activity_rows.js';
import { eventEntity } from '../entities/event.js';

const FILTERS = {
  action: p.string().values(EVENT_ACTION_NAMES as string[]),
  target_type: p.string().values(Object.keys(EVENT_TARGET_TYPES)),
  before: p.date(),
  after: p.date(),
  sort: p.string().values(['asc', 'desc']).default('desc'),
} satisfies Schema;

const EVENTS = { schema: 'Event', list: true } as const;

async function render(ctx: Koa.Context, deps: Deps, viewer: UserRow | null, source: EventSource, v: Parsed<typeof FILTERS>) {
  const query = eventsQuery(deps.db, viewer, source, {
    action: v.action ?? undefined,
    targetType: v.target_type ?? undefined,
    before: v.before ?? undefined,
    after: v.after ?? undefined,
    sort: v.sort as 'asc' | 'desc',
  });
  const rows = await paginate<EventRow>(ctx, deps.db, query);
  const extras = await loadEventExtras(deps.db, rows);
  return rows.map((row) => eventEntity(row, extras, deps.urls));
}

export const eventRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/events',
    auth: 'user',
    params: FILTERS,
    summary: "The signed-in user's events",
    response: EVENTS,
    handler: ({ ctx, deps, user, params }) => render(ctx, deps, user, { kind: 'user', userId: user.id }, params),
  }),

  // `:id` is an id or a username, so the route finds the user itself; after the parameters, as 10.8.
  route({
    method: 'GET',
    path: '/users/:id/events',
    auth: 'anonymous',
    params: FILTERS,
    summary: "A user's contribution events (by id or username)",
    response: EVENTS,
    handler: async ({ ctx, deps, user, path, params }) => {
      const subject = await findUserByIdOrUsername(deps.db, path.id);
      if (!subject) throw notFound('User');
      return render(ctx, deps, user, { kind: 'user', userId: subject.id }, params);
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/events',
    auth: 'anonymous',
    load: 'project',
    params: FILTERS,
    summary: "A project's events",
    response: EVENTS,
    handler: ({ ctx, deps, user, project, params }) => render(ctx, deps, user, { kind: 'project', projectId: project.id }, params),
  }),
];
