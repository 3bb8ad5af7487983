// Users (GitLab 10.8 lib/api/users.rb): the current user, the user list and single users, and
// (admins) creating, updating, deleting, blocking and unblocking users; their custom attributes
// (custom_attributes.ts) and impersonation tokens (impersonation_tokens.ts) are their own tables.
// Authentication and the admin check answer before parameters are validated (GitLab 10.8
// checked admin rights after its parameter validation; Wharf never tells a non-admin what is
// wrong with a request it may not make anyway). `:id` is digits only (Grape's requirement):
// `/users/alice` is no route (404 Not Found), an unknown number is 404 User Not Found.
import type Koa from 'koa';
import { HANDLED, route, type Route } from './core/route.js';
import { requireAdmin } from '../http/auth.js';
import { forbidden, notFound } from '../http/errors.js';
import { blankIfNull, given, p, rawParams } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import type { UserRow } from '../store/rows.js';
import { usersQuery, type UserOrder } from '../finders/users.js';
import { presentUser, presentUsers } from './present_users.js';
import { can, GLOBAL } from '../policy/can.js';
import { isAdmin } from '../policy/users.js';
import { createUser, setUserState, updateUser } from '../services/users/users.js';
import type { IdentityInput } from '../services/users/identities.js';
import { attachAvatar, avatarOf } from './avatar_params.js';
import { deleteUser } from '../services/users/deletion.js';
import { customAttributeRoutes } from './custom_attributes.js';
import { createRules, createSchema, customAttributesSchema, listRules, listSchema, updateRules, updateSchema } from './user_params.js';

function present(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** A bare JSON `true`/`false` body (block and unblock). */
function jsonScalar(ctx: Koa.Context, status: number, value: boolean): typeof HANDLED {
  ctx.status = status;
  ctx.body = JSON.stringify(value);
  ctx.set('Content-Type', 'application/json');
  return HANDLED;
}

const USER_ID = '/users/:id';

export const userRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/user',
    auth: 'user',
    summary: 'The signed-in user (UserWithAdmin for admins)',
    response: { schema: 'UserPublic' },
    handler: ({ deps, user }) => presentUser(deps.db, deps.urls, user, user.admin ? 'admin' : 'public'),
  }),

  route({
    method: 'GET',
    path: '/users',
    auth: 'anonymous',
    params: listSchema,
    rules: listRules,
    summary: 'List users (UserWithAdmin for admins; the anonymous only by username)',
    response: { schema: 'UserBasic', list: true },
    handler: async ({ ctx, deps, user: viewer, params: v }) => {
      const byIdentity = present(v.extern_uid) && present(v.provider);
      // 10.8's `authenticated_as_admin!` for these filters only.
      if (v.external || byIdentity) requireAdmin(ctx);
      // 10.8's endpoint: the anonymous must name one username (an exact match: 0 or 1 users).
      if (!can(viewer, GLOBAL, 'read_users_list') || (!viewer && !present(v.username))) {
        throw forbidden('Not authorized to access /api/v4/users');
      }
      // Admin-only filters and orders are ignored for everyone else, as GitLab drops them.
      const admin = isAdmin(viewer);
      const twoFactor = rawParams(ctx).two_factor; // undeclared in 10.8 CE; read as it came
      const customAttributes = can(viewer, GLOBAL, 'read_custom_attribute');
      const query = usersQuery(deps.db, {
        username: v.username,
        search: v.search,
        active: v.active,
        blocked: v.blocked,
        external: v.external,
        hideExternal: !admin,
        externalIdentity: byIdentity ? { provider: v.provider!, externUid: v.extern_uid! } : undefined,
        createdAfter: admin ? v.created_after : undefined,
        createdBefore: admin ? v.created_before : undefined,
        twoFactor: admin && typeof twoFactor === 'string' ? twoFactor : undefined,
        customAttributes: customAttributes ? v.custom_attributes : undefined,
        order: admin ? { by: v.order_by as UserOrder, sort: v.sort as 'asc' | 'desc' } : undefined,
      });
      const rows = await paginate<UserRow>(ctx, deps.db, query);
      return presentUsers(deps.db, deps.urls, rows, admin ? 'admin' : 'basic', { customAttributes: customAttributes && v.with_custom_attributes });
    },
  }),

  route({
    method: 'GET',
    path: USER_ID,
    auth: 'anonymous',
    load: 'user',
    params: customAttributesSchema,
    summary: 'Get a user (UserWithAdmin for admins)',
    response: { schema: 'User' },
    handler: ({ deps, user: viewer, target, can: canOnTarget, params: v }) => {
      // 10.8 answers 404, not 403, for a user one may not read.
      if (!canOnTarget('read_user')) throw notFound('User');
      const view = isAdmin(viewer) ? 'admin' : 'user';
      return presentUser(deps.db, deps.urls, target, view, { customAttributes: v.with_custom_attributes && can(viewer, GLOBAL, 'read_custom_attribute') });
    },
  }),

  route({
    method: 'POST',
    path: '/users',
    auth: 'admin',
    params: createSchema,
    rules: createRules,
    summary: 'Create a user',
    response: { schema: 'UserPublic' },
    handler: async ({ deps, params: v }) => {
      const avatar = await avatarOf(v);
      const user = await createUser(deps, {
        ...profile(v),
        email: v.email,
        username: v.username,
        name: v.name,
        password: v.password,
        resetPassword: v.reset_password,
        skipConfirmation: v.skip_confirmation,
        identity: identityOf(v),
      });
      return presentUser(deps.db, deps.urls, await attachAvatar(deps, 'user', user, avatar), 'public');
    },
  }),

  route({
    method: 'PUT',
    path: USER_ID,
    auth: 'admin',
    load: 'user',
    params: updateSchema,
    rules: updateRules,
    summary: 'Update a user',
    response: { schema: 'UserPublic' },
    handler: async ({ deps, target, params: v }) => {
      const avatar = await avatarOf(v);
      const updated = await updateUser(deps, target, {
        ...profile(v),
        ...given({ email: blankIfNull(v.email), username: blankIfNull(v.username), name: blankIfNull(v.name), password: blankIfNull(v.password) }),
        identity: identityOf(v),
      });
      return presentUser(deps.db, deps.urls, await attachAvatar(deps, 'user', updated, avatar), 'public');
    },
  }),

  route({
    method: 'DELETE',
    path: USER_ID,
    auth: 'admin',
    load: 'user',
    params: { hard_delete: p.boolean() },
    summary: 'Delete a user (hard_delete also removes their contributions)',
    handler: async ({ ctx, deps, target, params: v }) => {
      checkUnmodifiedSince(ctx, target.updated_at);
      await deleteUser(deps, target, { hardDelete: v.hard_delete });
    },
  }),

  ...(['block', 'unblock'] as const).map((action) =>
    route({
      method: 'POST',
      path: `${USER_ID}/${action}`,
      auth: 'admin',
      load: 'user',
      summary: `${action === 'block' ? 'Block' : 'Unblock'} a user (answers true, or false when nothing changed)`,
      response: { schema: 'boolean' },
      handler: async ({ ctx, deps, target }) => jsonScalar(ctx, 201, await setUserState(deps.db, target, action === 'block' ? 'blocked' : 'active')),
    }),
  ),

  ...customAttributeRoutes('users'),
];

/** The external identity a request gave: `provider` and `extern_uid` come together (all_or_none_of). */
function identityOf(v: { provider?: string | null; extern_uid?: string | null }): IdentityInput | undefined {
  if (v.provider === undefined && v.extern_uid === undefined) return undefined;
  return { provider: v.provider ?? '', externUid: v.extern_uid ?? '' };
}

/** The optional profile attributes a request gave (the external identity: identityOf). */
function profile(v: {
  skype?: string;
  linkedin?: string;
  twitter?: string;
  website_url?: string;
  organization?: string | null;
  projects_limit?: number;
  bio?: string | null;
  location?: string | null;
  admin?: boolean;
  can_create_group?: boolean;
  external?: boolean;
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
