// Builds the Koa app: the middleware chain, then every API router under /api/v4.
import Koa from 'koa';
import Router from '@koa/router';
import qs from 'qs';
import crypto from 'node:crypto';
import type { Deps } from './deps.js';
import { errorMiddleware, jsonMiddleware } from './http/errors.js';
import { authMiddleware } from './http/auth.js';
import { healthRouter } from './api/health.js';
import { gitHttpMiddleware } from './transport/router.js';
import { mount } from './api/mount.js';
import { ROUTE_TABLES } from './api/route_tables.js';

export const API_PREFIX = '/api/v4';

export function buildApp(deps: Deps): Koa {
  const app = new Koa();
  app.silent = true; // errors are logged by errorMiddleware

  app.use(accessLog(deps));
  app.use(jsonMiddleware);
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    ctx.set({ 'X-Frame-Options': 'SAMEORIGIN', 'X-Content-Type-Options': 'nosniff' });
    // Bracketed keys (iids[]=1, custom_attributes[k]=v) parsed as Rack does.
    ctx.state.query = ctx.querystring ? qs.parse(ctx.querystring, { depth: 5, arrayLimit: 1000, parameterLimit: 10000 }) : {};
    await next();
  });

  const health = healthRouter(deps);
  app.use(health.routes());
  app.use(gitHttpMiddleware(deps)); // git clone/fetch/push: streamed bodies, outside the API's parser

  const api = new Router({ prefix: API_PREFIX });
  for (const table of ROUTE_TABLES) mount(api, deps, table.routes);
  // koa-body (with formidable) is loaded by the first request that has a body, not at start.
  let parser: Promise<Koa.Middleware> | undefined;
  const body: Koa.Middleware = async (ctx, next) => {
    parser ??= import('koa-body').then(({ koaBody, HttpMethodEnum }) =>
      koaBody({
        parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
        jsonLimit: deps.config.maxBodyBytes,
        formLimit: deps.config.maxBodyBytes,
        textLimit: deps.config.maxBodyBytes,
        multipart: true,
        formidable: { maxFileSize: deps.config.maxBodyBytes },
      }) as unknown as Koa.Middleware,
    );
    return (await parser)(ctx, next);
  };
  const auth = authMiddleware(deps);
  const apiRoutes = api.routes();
  app.use(async (ctx, next) => {
    if (ctx.path !== API_PREFIX && !ctx.path.startsWith(`${API_PREFIX}/`)) return next();
    const routed = () => auth(ctx, async () => {
      await apiRoutes(ctx as never, async () => {});
    });
    // Reads carry no body: the parser stays off their path.
    if (ctx.method === 'GET' || ctx.method === 'HEAD') await routed();
    else await body(ctx, routed);
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
