// Users: the current user, the user list and single users, and (admins) creating, updating,
// deleting, blocking and unblocking users; their custom attributes and impersonation tokens.
// Authentication and permission answer before parameters are validated (GitLab 10.8 checked
// admin rights after its parameter validation; Wharf never tells a non-admin what is wrong
// with a request it may not make anyway).
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { currentUser, requireAdmin, requireUser } from '../http/auth.js';
import { ApiError, forbidden, notFound } from '../http/errors.js';
import { blankIfNull, given, p, rawParams } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findUserById, usersQuery, type UserOrder } from '../finders/users.js';
import { presentUser, presentUsers } from '../entities/user.js';
import { canListUsers, isAdmin } from '../policy/users.js';
import { createUser, setUserState, updateUser } from '../services/users.js';
import { deleteUser } from '../services/user_deletion.js';
import { allOrNoneOf, atLeastOneOf, createSchema, customAttributesSchema, listSchema, parseOrdered, updateSchema } from './user_params.js';
import { mountCustomAttributes } from './custom_attributes.js';
import { impersonationTokensRouter } from './impersonation_tokens.js';

/** `:id` of the users routes is digits only; anything else is not a route (404 error body). */
function isId(id: string): boolean {
  return /^\d+$/.test(id);
}

async function loadUser(deps: Deps, id: string): Promise<UserRow> {
  const user = await findUserById(deps.db, id);
  if (!user) throw notFound('User');
  return user;
}

function present(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** A bare JSON `true`/`false` body (block and unblock). */
function jsonScalar(ctx: Koa.Context, status: number, value: boolean): void {
  ctx.status = status;
  ctx.body = JSON.stringify(value);
  ctx.set('Content-Type', 'application/json');
}

export function usersRouter(deps: Deps): Router {
  const router = new Router();
  const { db, urls } = deps;

  router.get('/user', async (ctx) => {
    const user = requireUser(ctx);
    ctx.body = await presentUser(db, urls, user, user.admin ? 'admin' : 'public');
  });

  router.get('/users', async (ctx) => {
    const viewer = currentUser(ctx);
    const v = parseOrdered(ctx, listSchema, { created_before: allOrNoneOf('extern_uid', 'provider') });
    const byIdentity = present(v.extern_uid) && present(v.provider);
    if (v.external || byIdentity) requireAdmin(ctx);
    if (!canListUsers(viewer, v.username)) throw forbidden('Not authorized to access /api/v4/users');
    // Admin-only filters and orders are ignored for everyone else, as GitLab drops them.
    const admin = isAdmin(viewer);
    const twoFactor = rawParams(ctx).two_factor;
    const query = usersQuery(db, {
      username: v.username,
      search: v.search,
      active: v.active,
      blocked: v.blocked,
      external: v.external,
      hideExternal: !admin,
      externalIdentity: byIdentity,
      createdAfter: admin ? v.created_after : undefined,
      createdBefore: admin ? v.created_before : undefined,
      twoFactor: admin && typeof twoFactor === 'string' ? twoFactor : undefined,
      customAttributes: admin ? v.custom_attributes : undefined,
      order: admin ? { by: v.order_by as UserOrder, sort: v.sort as 'asc' | 'desc' } : undefined,
    });
    const rows = await paginate<UserRow>(ctx, db, query);
    ctx.body = await presentUsers(db, urls, rows, admin ? 'admin' : 'basic', { customAttributes: admin && v.with_custom_attributes });
  });

  router.get('/users/:id', async (ctx, next) => {
    if (!isId(ctx.params.id)) return next();
    const v = parseOrdered(ctx, customAttributesSchema);
    const user = await loadUser(deps, ctx.params.id);
    const admin = isAdmin(currentUser(ctx));
    ctx.body = await presentUser(db, urls, user, admin ? 'admin' : 'user', { customAttributes: admin && v.with_custom_attributes });
  });

  router.post('/users', async (ctx) => {
    requireAdmin(ctx);
    const v = parseOrdered(ctx, createSchema, {
      skip_confirmation: atLeastOneOf('password', 'reset_password'),
      external: allOrNoneOf('extern_uid', 'provider'),
    });
    const user = await createUser(deps, {
      ...profile(v),
      email: v.email,
      username: v.username,
      name: v.name,
      password: v.password,
      resetPassword: v.reset_password,
      skipConfirmation: v.skip_confirmation,
    });
    ctx.status = 201;
    ctx.body = await presentUser(db, urls, user, 'public');
  });

  router.put('/users/:id', async (ctx, next) => {
    if (!isId(ctx.params.id)) return next();
    requireAdmin(ctx);
    const user = await loadUser(deps, ctx.params.id);
    const v = parseOrdered(ctx, updateSchema, { external: allOrNoneOf('extern_uid', 'provider') });
    const updated = await updateUser(deps, user, {
      ...profile(v),
      ...given({ email: blankIfNull(v.email), username: blankIfNull(v.username), name: blankIfNull(v.name), password: blankIfNull(v.password) }),
    });
    ctx.body = await presentUser(db, urls, updated, 'public');
  });

  router.delete('/users/:id', async (ctx, next) => {
    if (!isId(ctx.params.id)) return next();
    requireAdmin(ctx);
    const user = await loadUser(deps, ctx.params.id);
    const v = parseOrdered(ctx, { hard_delete: p.boolean() });
    checkUnmodifiedSince(ctx, user.updated_at);
    await deleteUser(deps, user, { hardDelete: v.hard_delete });
    ctx.status = 204;
  });

  for (const [action, state] of [['block', 'blocked'], ['unblock', 'active']] as const) {
    router.post(`/users/:id/${action}`, async (ctx, next) => {
      if (!isId(ctx.params.id)) return next();
      requireAdmin(ctx);
      const user = await loadUser(deps, ctx.params.id);
      jsonScalar(ctx, 201, await setUserState(db, user, state));
    });
  }

  mountCustomAttributes(router, deps, '/users/:id', 'user', async (ctx) => {
    if (!isId(ctx.params.id)) throw new ApiError(404, { error: '404 Not Found' });
    return (await loadUser(deps, ctx.params.id)).id;
  });

  router.use(impersonationTokensRouter(deps).routes());
  return router;
}

/** The optional profile attributes a request gave (external identities are not kept). */
function profile(v: {
  skype?: string; linkedin?: string; twitter?: string; website_url?: string; organization?: string; projects_limit?: number;
  bio?: string; location?: string; admin?: boolean; can_create_group?: boolean; external?: boolean;
}) {
  return given({
    skype: v.skype,
    linkedin: v.linkedin,
    twitter: v.twitter,
    website_url: v.website_url,
    organization: v.organization,
    projects_limit: v.projects_limit,
    bio: v.bio,
    location: v.location,
    admin: v.admin,
    can_create_group: v.can_create_group,
    external: v.external,
  });
}
