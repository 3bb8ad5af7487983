// Who is asking: a personal access token from PRIVATE-TOKEN, private_token, a Bearer header
// or access_token, then `sudo` for admins. Unknown tokens answer 401 on every endpoint;
// no token at all leaves the request anonymous.
//
// A token and its user are read in one query and then kept per token digest while the
// `tokens` and `users` cache epochs stay put (src/store/cache_epochs.ts): revoking a token,
// changing its scopes or expiry, blocking, changing or deleting its user all move an epoch in
// the writing transaction, so every worker process reads the token again on its next request.
// Expiry by the calendar is checked on every request. Unknown tokens are never cached.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { TokenRow, UserRow } from '../store/rows.js';
import { ApiError, forbidden, unauthorized } from './errors.js';
import { rawParams } from './params.js';
import { tokenDigest } from '../services/users/tokens.js';
import { tokenExpired, tokenScopes } from '../store/token_facts.js';
import { findUserByIdOrUsername } from '../finders/users.js';
import { hotReader } from '../store/hot.js';
import { EpochCache, perStore } from '../store/cache_epochs.js';
import { requestEpochs } from './request_settings.js';

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

interface Found {
  token: TokenRow;
  user: UserRow;
  scopes: string[];
}

const FIND_TOKEN = `SELECT t.id AS t_id, t.name AS t_name, t.token_digest AS t_token_digest, t.scopes AS t_scopes,
  t.impersonation AS t_impersonation, t.revoked AS t_revoked, t.expires_at AS t_expires_at,
  t.created_at AS t_created_at, t.updated_at AS t_updated_at, u.*
  FROM personal_access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_digest = ? LIMIT 1`;

/** The token and its user in one query (on a cache miss). */
async function findToken(deps: Deps, digest: string): Promise<Found | null> {
  const row = await hotReader(deps.db).first<Record<string, any>>(FIND_TOKEN, [digest]);
  if (!row) return null;
  const { t_id, t_name, t_token_digest, t_scopes, t_impersonation, t_revoked, t_expires_at, t_created_at, t_updated_at, ...user } = row;
  const token: TokenRow = {
    id: t_id,
    user_id: user.id,
    name: t_name,
    token_digest: t_token_digest,
    scopes: t_scopes,
    impersonation: t_impersonation,
    revoked: t_revoked,
    expires_at: t_expires_at,
    created_at: t_created_at,
    updated_at: t_updated_at,
  };
  // Shared by every request that presents the token: nobody may change them.
  return { token: Object.freeze(token), user: Object.freeze(user) as UserRow, scopes: Object.freeze(tokenScopes(token)) as string[] };
}

/** Tokens by digest, and sudo targets by id or username, per process (see the header). */
const tokensOf = perStore(() => new EpochCache<string, Found>(['tokens', 'users']));
const sudoTargetsOf = perStore(() => new EpochCache<string, UserRow | null>('users'));

/**
 * The token's user (headers and query string only: the body is read after this, so that a
 * stranger's body is never parsed). 401/403 for an unknown, revoked, expired or blocked token.
 */
export function authenticate(deps: Deps): Koa.Middleware {
  const tokens = tokensOf(deps.db);
  return async (ctx, next) => {
    const state: AuthState = { user: null, token: null, sudoer: null };
    ctx.state.auth = state;
    const secret = tokenFrom(ctx);
    let scopes: string[] = [];
    if (secret !== undefined) {
      const digest = tokenDigest(secret);
      const epochs = await requestEpochs(ctx, deps);
      let found = tokens.peek(digest, epochs);
      if (!found) {
        const loaded = await findToken(deps, digest);
        if (!loaded) throw unauthorized();
        tokens.set(digest, epochs, (found = loaded));
      }
      const { token, user } = found;
      scopes = found.scopes;
      if (token.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
      if (tokenExpired(token)) throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
      if (user.state === 'blocked') throw forbidden('Your account has been blocked.');
      state.user = user;
      state.token = token;
      (ctx.state as { tokenScopes?: string[] }).tokenScopes = scopes;
    }
    await next();
  };
}

/**
 * `sudo` from the header, the query string or the body (GitLab takes all three), then the
 * token's scopes. Runs after the body is read.
 */
export function resolveSudo(deps: Deps): Koa.Middleware {
  const sudoTargets = sudoTargetsOf(deps.db);
  return async (ctx, next) => {
    const state = ctx.state.auth as AuthState;
    const scopes = (ctx.state as { tokenScopes?: string[] }).tokenScopes ?? [];
    const sudo = ctx.get('sudo') || rawParams(ctx).sudo;
    if (sudo !== undefined && sudo !== null && sudo !== '') {
      if (!state.user) throw unauthorized();
      if (!state.user.admin) throw forbidden('Must be admin to use sudo');
      if (state.token && !scopes.includes('sudo')) throw insufficientScope(['sudo']);
      const last: unknown = Array.isArray(sudo) ? sudo[sudo.length - 1] : sudo; // a repeated key: the last, as Rack
      const name = typeof last === 'string' || typeof last === 'number' ? String(last) : '';
      const target = name
        ? await sudoTargets.get(name.toLowerCase(), await requestEpochs(ctx, deps), async () => {
            const row = await findUserByIdOrUsername(deps.db, name);
            return row ? (Object.freeze(row) as UserRow) : null;
          })
        : null;
      if (!target) throw new ApiError(404, { message: `404 User with ID or username '${name}' Not Found` });
      state.sudoer = state.user;
      state.user = target;
    } else if (state.token) {
      const accepted = acceptedScopes(ctx);
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
