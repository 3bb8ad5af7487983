// Who is asking: a personal access token from PRIVATE-TOKEN, private_token, a Bearer header
// or access_token, then `sudo` for admins. Unknown tokens answer 401 on every endpoint;
// no token at all leaves the request anonymous.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { TokenRow, UserRow } from '../store/rows.js';
import { ApiError, forbidden, unauthorized } from './errors.js';
import { rawParams } from './params.js';
import { tokenDigest } from '../services/tokens.js';
import { tokenExpired, tokenScopes } from '../store/token_facts.js';
import { findUserByIdOrUsername } from '../finders/users.js';

export interface AuthState {
  user: UserRow | null;
  token: TokenRow | null;
  /** The admin behind a sudo request. */
  sudoer: UserRow | null;
}

export function tokenFrom(ctx: Koa.Context): string | undefined {
  const header = ctx.get('private-token');
  if (header) return header;
  const query = ctx.state.query as Record<string, unknown>;
  if (typeof query.private_token === 'string' && query.private_token) return query.private_token;
  const authz = ctx.get('authorization');
  const bearer = /^Bearer\s+(\S+)$/i.exec(authz);
  if (bearer) return bearer[1];
  if (typeof query.access_token === 'string' && query.access_token) return query.access_token;
  return undefined;
}

function invalidToken(description: string): ApiError {
  return new ApiError(
    401,
    { error: 'invalid_token', error_description: description },
    { 'WWW-Authenticate': `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${description}"` },
  );
}

function insufficientScope(scopes: string[]): ApiError {
  return new ApiError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope: scopes.join(' '),
  });
}

/** `read_user` tokens may only read the users API. */
function acceptedScopes(ctx: Koa.Context): string[] {
  const usersApi = /^\/api\/v4\/users?(\/|$)/.test(ctx.path);
  return usersApi && (ctx.method === 'GET' || ctx.method === 'HEAD') ? ['api', 'read_user'] : ['api'];
}

/** The token and its user in one query (this runs on every authenticated request). */
async function findToken(deps: Deps, secret: string): Promise<{ token: TokenRow; user: UserRow } | undefined> {
  const row = await deps.db('personal_access_tokens as t')
    .join('users as u', 'u.id', 't.user_id')
    .where('t.token_digest', tokenDigest(secret))
    .first(
      deps.db.raw('t.id as t_id'), 't.user_id', 't.name as t_name', 't.token_digest', 't.scopes', 't.impersonation', 't.revoked',
      't.expires_at', deps.db.raw('t.created_at as t_created_at'), deps.db.raw('t.updated_at as t_updated_at'), 'u.*',
    );
  if (!row) return undefined;
  const { t_id, user_id, t_name, token_digest, scopes, impersonation, revoked, expires_at, t_created_at, t_updated_at, ...user } = row;
  const token: TokenRow = {
    id: t_id, user_id, name: t_name, token_digest, scopes, impersonation, revoked, expires_at, created_at: t_created_at, updated_at: t_updated_at,
  };
  return { token, user: user as UserRow };
}

/**
 * The token's user (headers and query string only: the body is read after this, so that a
 * stranger's body is never parsed). 401/403 for an unknown, revoked, expired or blocked token.
 */
export function authenticate(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    const state: AuthState = { user: null, token: null, sudoer: null };
    ctx.state.auth = state;
    const secret = tokenFrom(ctx);
    if (secret !== undefined) {
      const found = await findToken(deps, secret);
      if (!found) throw unauthorized();
      const { token, user } = found;
      if (token.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
      if (tokenExpired(token)) throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
      if (user.state === 'blocked') throw forbidden('Your account has been blocked.');
      state.user = user;
      state.token = token;
    }
    await next();
  };
}

/**
 * `sudo` from the header, the query string or the body (GitLab takes all three), then the
 * token's scopes. Runs after the body is read.
 */
export function resolveSudo(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    const state = ctx.state.auth as AuthState;
    const sudo = ctx.get('sudo') || rawParams(ctx).sudo;
    if (sudo !== undefined && sudo !== null && sudo !== '') {
      if (!state.user) throw unauthorized();
      if (!state.user.admin) throw forbidden('Must be admin to use sudo');
      if (state.token && !tokenScopes(state.token).includes('sudo')) throw insufficientScope(['sudo']);
      const last: unknown = Array.isArray(sudo) ? sudo[sudo.length - 1] : sudo; // a repeated key: the last, as Rack
      const name = typeof last === 'string' || typeof last === 'number' ? String(last) : '';
      const target = name ? await findUserByIdOrUsername(deps.db, name) : undefined;
      if (!target) throw new ApiError(404, { message: `404 User with ID or username '${name}' Not Found` });
      state.sudoer = state.user;
      state.user = target;
    } else if (state.token) {
      const accepted = acceptedScopes(ctx);
      const scopes = tokenScopes(state.token);
      if (!accepted.some((s) => scopes.includes(s))) throw insufficientScope(accepted);
    }
    await next();
  };
}

export function currentUser(ctx: Koa.Context): UserRow | null {
  return (ctx.state.auth as AuthState).user;
}

/** The signed-in user, or 401. */
export function requireUser(ctx: Koa.Context): UserRow {
  const user = currentUser(ctx);
  if (!user) throw unauthorized();
  return user;
}

/** An admin, or 401 (anonymous) / 403 (anyone else). */
export function requireAdmin(ctx: Koa.Context): UserRow {
  const user = requireUser(ctx);
  if (!user.admin) throw forbidden();
  return user;
}
