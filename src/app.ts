// Builds the Koa app: the middleware chain, then every API router under /api/v4.
import Koa from 'koa';
import Router from '@koa/router';
import qs from 'qs';
import crypto from 'node:crypto';
import type { Deps } from './deps.js';
import { errorMiddleware, jsonMiddleware } from './http/errors.js';
import { authenticate, currentUser, resolveSudo } from './http/auth.js';
import { parseBody } from './http/body.js';
import { RACK_QUERY } from './http/params.js';
import { healthRouter } from './api/health.js';
import { gitHttpMiddleware } from './transport/router.js';
import { lfsMiddleware } from './transport/lfs/middleware.js';
import { avatarFiles } from './api/avatar_files.js';
import { uploadFiles } from './api/upload_files.js';
import { matchTakesBody, methodMayTakeBody, mount } from './api/core/mount.js';
import { ROUTE_TABLES } from './api/core/route_tables.js';
import { monitoringRouter } from './api/monitoring.js';
import { requestMetrics } from './http/request_metrics.js';
import { apiThrottle, webThrottle } from './http/throttle.js';

const API_PREFIX = '/api/v4';

export function buildApp(deps: Deps): Koa {
  const app = new Koa();
  app.silent = true; // errors are logged by errorMiddleware

  app.use(accessLog(deps));
  app.use(requestMetrics);
  app.use(jsonMiddleware);
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    ctx.set({ 'X-Frame-Options': 'SAMEORIGIN', 'X-Content-Type-Options': 'nosniff' });
    // An API path with repeated slashes is the path with one (nginx's merge_slashes, in front of
    // every GitLab: python-gitlab sends `/features//<name>` and relies on it).
    if (ctx.path.startsWith('/api/') && ctx.path.includes('//')) ctx.path = mergeSlashes(ctx.path);
    // Bracketed keys (iids[]=1, custom_attributes[k]=v) parsed as Rack does.
    ctx.state.query = ctx.querystring ? qs.parse(ctx.querystring, RACK_QUERY) : {};
    await next();
  });

  const health = healthRouter(deps);
  app.use(health.routes());
  app.use(monitoringRouter(deps).routes());
  app.use(webThrottle(deps, API_PREFIX)); // rate limits (the throttle_* settings) outside the API
  app.use(lfsMiddleware(deps)); // git lfs: batch API, object transfers, locks (streamed bodies)
  app.use(gitHttpMiddleware(deps)); // git clone/fetch/push: streamed bodies, outside the API's parser

  const api = apiRouter(deps);
  const apiRoutes = api.routes();
  const auth = apiThrottle(deps, authenticate(deps)); // rate limits around who is asking
  app.use(avatarFiles(deps, auth)); // uploaded avatars, at the paths avatar_url shows
  app.use(uploadFiles(deps, auth)); // files uploaded to projects, at the URLs POST /projects/:id/uploads answers
  const sudo = resolveSudo(deps);
  const maxBytes = deps.config.maxBodyBytes;
  app.use(async (ctx, next) => {
    if (ctx.path !== API_PREFIX && !ctx.path.startsWith(`${API_PREFIX}/`)) return next();
    // Token first, then the body (only for a route that reads one; multipart, which may write
    // files, only for a signed-in user), then sudo, which may be a body parameter.
    await auth(ctx, async () => {
      const takesBody = methodMayTakeBody(ctx.method) && matchTakesBody(api.match(ctx.path, ctx.method).pathAndMethod);
      const release = takesBody ? await parseBody(ctx, { maxBytes, multipart: currentUser(ctx) !== null }) : null;
      try {
        await sudo(ctx, async () => {
          await apiRoutes(ctx as never, async () => {});
        });
      } finally {
        await release?.();
      }
    });
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { error: '404 Not Found' };
    }
  });
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { error: '404 Not Found' };
  });
  return app;
}

/** Every API router mounted under /api/v4, in one router. */
export function apiRouter(deps: Deps): Router {
  const api = new Router({ prefix: API_PREFIX });
  for (const table of ROUTE_TABLES) mount(api, deps, table.routes);
  return api;
}

/** Method and path pattern of every API route (HEAD, which Koa answers from GET, left out). */
export function apiRouteList(api: Router): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const layer of api.stack) {
    for (const method of layer.methods) if (method !== 'HEAD') out.push({ method, path: String(layer.path) });
  }
  return out;
}

function accessLog(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    const id = ctx.get('x-request-id') || crypto.randomUUID();
    ctx.set('X-Request-Id', id);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      deps.log.info({ id, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}

/** `path` with each run of slashes made one (a plain scan: nothing to backtrack). */
function mergeSlashes(path: string): string {
  let out = '';
  for (const c of path) if (c !== '/' || !out.endsWith('/')) out += c;
  return out;
}
