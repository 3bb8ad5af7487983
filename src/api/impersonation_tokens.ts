// Impersonation tokens (admins only, GitLab 10.8 lib/api/users.rb): personal access tokens an
// admin makes for a user, listed, shown and revoked here. The secret is only in the answer that
// creates the token. As in 10.8: admin first (a before filter), then the parameters (`user_id`
// is an integer: `/users/alice/impersonation_tokens` is 400 "user_id is invalid"), then the
// user (404 User Not Found), then the token (404 Impersonation Token Not Found).
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { TokenRow, UserRow } from '../store/rows.js';
import { notFound, validationError } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findUserById } from '../finders/users.js';
import { findImpersonationToken, impersonationTokensQuery, type TokenState } from '../finders/tokens.js';
import { impersonationToken } from '../entities/token.js';
import { createToken, revokeToken, TOKEN_SCOPES } from '../services/users/tokens.js';

const BASE = '/users/:user_id/impersonation_tokens';
const TOKEN = { schema: 'ImpersonationToken' } as const;
const userId = { user_id: p.integer().required() };
const tokenId = { ...userId, impersonation_token_id: p.integer().required() };

/** The user of `user_id` (declared by the route, so already an integer), or 404 User Not Found. */
async function userOf(deps: Deps, id: number): Promise<UserRow> {
  const user = await findUserById(deps.db, id);
  if (!user) throw notFound('User');
  return user;
}

async function tokenOf(deps: Deps, userIdValue: number, id: number): Promise<TokenRow> {
  const token = await findImpersonationToken(deps.db, (await userOf(deps, userIdValue)).id, id);
  if (!token) throw notFound('Impersonation Token');
  return token;
}

/** The model's rules: scopes are required and must all be known. */
/** The name column holds 255 characters: a longer name is a 400, not the database's error. */
const MAX_NAME = 255;

function nameErrors(name: string): Record<string, string[]> {
  return name.length > MAX_NAME ? { name: [`is too long (maximum is ${MAX_NAME} characters)`] } : {};
}

function scopeErrors(scopes: string[] | undefined): Record<string, string[]> {
  if (!scopes || scopes.length === 0) return { scopes: ["can't be blank"] };
  if (!scopes.every((s) => (TOKEN_SCOPES as readonly string[]).includes(s))) return { scopes: ['can only contain available scopes'] };
  return {};
}

export const impersonationTokenRoutes: Route[] = [
  route({
    method: 'GET',
    path: BASE,
    auth: 'admin',
    params: {
      ...userId,
      page: p.integer(),
      per_page: p.integer(),
      state: p.string().values(['all', 'active', 'inactive']).default('all'),
    },
    summary: "List a user's impersonation tokens (state all, active or inactive)",
    response: { ...TOKEN, list: true },
    handler: async ({ ctx, deps, params: v }) => {
      const q = impersonationTokensQuery(deps.db, (await userOf(deps, v.user_id)).id, v.state as TokenState);
      return (await paginate<TokenRow>(ctx, deps.db, q)).map((t) => impersonationToken(t));
    },
  }),

  route({
    method: 'POST',
    path: BASE,
    auth: 'admin',
    params: { ...userId, name: p.string().required(), expires_at: p.date(), scopes: p.array(p.string()) },
    summary: 'Create an impersonation token (its secret is only in this answer)',
    response: TOKEN,
    handler: async ({ deps, params: v }) => {
      const user = await userOf(deps, v.user_id);
      const errors = { ...nameErrors(v.name), ...scopeErrors(v.scopes) };
      if (Object.keys(errors).length) throw validationError(errors);
      const { row, token } = await createToken(deps.db, {
        userId: user.id,
        name: v.name,
        scopes: v.scopes!,
        expiresAt: v.expires_at ?? null,
        impersonation: true,
      });
      return impersonationToken(row, token);
    },
  }),

  route({
    method: 'GET',
    path: `${BASE}/:impersonation_token_id`,
    auth: 'admin',
    params: tokenId,
    summary: 'Get an impersonation token',
    response: TOKEN,
    handler: async ({ deps, params: v }) => impersonationToken(await tokenOf(deps, v.user_id, v.impersonation_token_id)),
  }),

  route({
    method: 'DELETE',
    path: `${BASE}/:impersonation_token_id`,
    auth: 'admin',
    params: tokenId,
    summary: 'Revoke an impersonation token',
    handler: async ({ ctx, deps, params: v }) => {
      const token = await tokenOf(deps, v.user_id, v.impersonation_token_id);
      checkUnmodifiedSince(ctx, token.updated_at);
      await revokeToken(deps.db, token);
    },
  }),
];
