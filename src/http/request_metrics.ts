// Counts and times every request for the Prometheus metrics (services/metrics/metrics.ts), labelled by
// the route's template (`/api/v4/projects/:id/issues`, `/:namespace/:project.git/info/refs`),
// never the raw URL, so the number of series stays bounded whatever clients send.
import type Koa from 'koa';
import { httpDuration, httpRequests } from '../services/metrics/metrics.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function routeOf(ctx: Koa.Context): string {
  const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const template = ctx.state.routeTemplate;
  return typeof template === 'string' ? template : 'unmatched';
}

export const requestMetrics: Koa.Middleware = async (ctx, next) => {
  const start = process.hrtime.bigint();
  try {
    await next();
  } finally {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const labels = { method: METHODS.has(ctx.method) ? ctx.method : 'OTHER', route: routeOf(ctx), status: String(ctx.status) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, seconds);
  }
};
