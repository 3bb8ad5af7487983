// /broadcast_messages (GitLab 10.8 lib/api/broadcast_messages.rb): the banners admins show
// to everyone; every route is admins only (401 signed out, 403 others), then the message
// (`404 Not found`, a record lookup). The list is paginated, newest first. On create
// `starts_at` defaults to now and `ends_at` to an hour later; on update each given attribute
// is set (a null clears it, and the model refuses that as blank for the message and times).
// A delete honours If-Unmodified-Since (412).
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { BroadcastMessageRow } from '../store/broadcast_message_rows.js';
import { recordNotFound } from '../http/errors.js';
import { given, p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { broadcastMessagesQuery, findBroadcastMessage } from '../finders/broadcast_messages.js';
import { createBroadcastMessage, deleteBroadcastMessage, updateBroadcastMessage } from '../services/broadcast_messages/broadcast_messages.js';
import { broadcastMessageEntity } from '../entities/broadcast_message.js';

const MESSAGE = { schema: 'BroadcastMessage' } as const;
const idParam = { id: p.integer().required() };
const present = (m: BroadcastMessageRow) => broadcastMessageEntity(m, new Date());

async function messageOr404(deps: Deps, id: number): Promise<BroadcastMessageRow> {
  const found = await findBroadcastMessage(deps.db, id);
  if (!found) throw recordNotFound();
  return found;
}

export const broadcastMessageRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/broadcast_messages',
    auth: 'admin',
    summary: 'Get all broadcast messages',
    response: { ...MESSAGE, list: true },
    handler: async ({ ctx, deps }) => (await paginate<BroadcastMessageRow>(ctx, deps.db, broadcastMessagesQuery(deps.db))).map(present),
  }),

  route({
    method: 'POST',
    path: '/broadcast_messages',
    auth: 'admin',
    params: { message: p.string().required(), starts_at: p.datetime(), ends_at: p.datetime(), color: p.string(), font: p.string() },
    summary: 'Create a broadcast message',
    response: MESSAGE,
    handler: async ({ deps, params }) => present(await createBroadcastMessage(deps.db, params)),
  }),

  route({
    method: 'GET',
    path: '/broadcast_messages/:id',
    auth: 'admin',
    params: idParam,
    summary: 'Get a specific broadcast message',
    response: MESSAGE,
    handler: async ({ deps, params }) => present(await messageOr404(deps, params.id)),
  }),

  route({
    method: 'PUT',
    path: '/broadcast_messages/:id',
    auth: 'admin',
    params: {
      ...idParam,
      message: p.string().nullable(),
      starts_at: p.datetime().nullable(),
      ends_at: p.datetime().nullable(),
      color: p.string().nullable(),
      font: p.string().nullable(),
    },
    summary: 'Update a broadcast message',
    response: MESSAGE,
    handler: async ({ deps, params: { id, ...changes } }) => present(await updateBroadcastMessage(deps.db, await messageOr404(deps, id), given(changes))),
  }),

  route({
    method: 'DELETE',
    path: '/broadcast_messages/:id',
    auth: 'admin',
    params: idParam,
    summary: 'Delete a broadcast message',
    handler: async ({ ctx, deps, params }) => {
      const message = await messageOr404(deps, params.id);
      checkUnmodifiedSince(ctx, message.updated_at);
      await deleteBroadcastMessage(deps.db, message);
    },
  }),
];
