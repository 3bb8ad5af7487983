// Rate limits from the `throttle_*` settings (GitLab 10.8's Rack::Attack config, all off by
// default): unauthenticated requests per client IP, authenticated API requests per user,
// authenticated non-API requests per user. Each request counts in a fixed window of the
// throttle's period (store/rate_limits.ts, shared by every worker process); one more than the
// limit and beyond answers Rack::Attack 4.4's 429: `Content-Type: text/plain`, body
// "Retry later\n", `Retry-After` the period in seconds.
//
// As in GitLab, "authenticated" means a valid personal access token (PRIVATE-TOKEN,
// private_token, Bearer, access_token), found before the request is handled: a request whose
// token is refused counts as unauthenticated, and git's Basic credentials are not a token
// here either. The probes and metrics under /-/ are not limited, so a load balancer or a
// scraper never takes a node out. With every throttle off this adds no query: the settings
// are read once per request anyway.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import { countHit } from '../store/rate_limits.js';
import { tokenDigest } from '../services/users/tokens.js';
import { tokenExpired } from '../store/token_facts.js';
import { tokenFrom, type AuthState } from './auth.js';
import { requestSettings } from './request_settings.js';

type ThrottleName = 'unauthenticated' | 'authenticated_api' | 'authenticated_web';

function enabled(s: ApplicationSettings, name: ThrottleName): boolean {
  return s[`throttle_${name}_enabled`];
}

/** Counts the request against the throttle; true when it is over the limit (the 429 is written). */
async function overLimit(ctx: Koa.Context, deps: Deps, s: ApplicationSettings, name: ThrottleName, discriminator: string | number): Promise<boolean> {
  const period = s[`throttle_${name}_period_in_seconds`];
  const limit = s[`throttle_${name}_requests_per_period`];
  const { count } = await countHit(deps.db, `throttle_${name}:${discriminator}`, period);
  if (count <= limit) return false;
  ctx.status = 429;
  ctx.set('Retry-After', String(period));
  ctx.set('Content-Type', 'text/plain');
  ctx.body = 'Retry later\n';
  return true;
}

/**
 * Around the API's authentication (`auth`, then the routes as `next`): a signed-in user counts
 * against authenticated_api; anyone else, including a request whose credentials auth refuses,
 * against unauthenticated.
 */
export function apiThrottle(deps: Deps, auth: Koa.Middleware): Koa.Middleware {
  return async (ctx, next) => {
    const s = await requestSettings(ctx, deps);
    const unauthenticated = enabled(s, 'unauthenticated');
    const api = enabled(s, 'authenticated_api');
    if (!unauthenticated && !api) return auth(ctx, next);
    let signedIn = false;
    try {
      await auth(ctx, async () => {
        signedIn = true;
        const state = ctx.state.auth as AuthState;
        const userId = (state.sudoer ?? state.user)?.id;
        if (userId !== undefined && userId !== null) {
          if (api && (await overLimit(ctx, deps, s, 'authenticated_api', userId))) return;
        } else if (unauthenticated && (await overLimit(ctx, deps, s, 'unauthenticated', ctx.ip))) return;
        await next();
      });
    } catch (err) {
      // Refused credentials: the request was unauthenticated when Rack::Attack counted it.
      if (signedIn || !unauthenticated) throw err;
      if (await overLimit(ctx, deps, s, 'unauthenticated', ctx.ip)) return;
      throw err;
    }
  };
}

/** The user id of a valid token the request carries (web requests only; the API's auth does this there). */
async function tokenUserId(deps: Deps, ctx: Koa.Context): Promise<number | null> {
  const secret = tokenFrom(ctx);
  if (secret === undefined) return null;
  const token = await deps
    .db('personal_access_tokens')
    .where({ token_digest: tokenDigest(secret) })
    .first();
  if (!token || token.revoked || tokenExpired(token)) return null;
  return token.user_id;
}

/** Every request outside /api/ and /-/ (git over HTTP): per user with a token, else per IP. */
export function webThrottle(deps: Deps, apiPrefix: string): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path === apiPrefix || ctx.path.startsWith(`${apiPrefix}/`) || ctx.path.startsWith('/-/')) return next();
    const s = await requestSettings(ctx, deps);
    const unauthenticated = enabled(s, 'unauthenticated');
    const web = enabled(s, 'authenticated_web');
    if (unauthenticated || web) {
      const userId = await tokenUserId(deps, ctx);
      if (userId !== null) {
        if (web && (await overLimit(ctx, deps, s, 'authenticated_web', userId))) return;
      } else if (unauthenticated && (await overLimit(ctx, deps, s, 'unauthenticated', ctx.ip))) return;
    }
    await next();
  };
}
