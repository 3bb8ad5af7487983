// GET /-/metrics (GitLab 10.8's MetricsController): the Prometheus text exposition of
// services/metrics/metrics.ts, for clients in WHARF_MONITORING_WHITELIST only (GitLab's monitoring
// IP whitelist; default 127.0.0.0/8 and ::1) and while the `prometheus_metrics_enabled`
// setting is on. Anyone else gets the same 404 as for a path that does not exist.
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { IpWhitelist } from '../http/ip_whitelist.js';
import { requestSettings } from '../http/request_settings.js';
import { metricsText } from '../services/metrics/metrics.js';

export function monitoringRouter(deps: Deps): Router {
  const router = new Router();
  const whitelist = new IpWhitelist(deps.config.monitoringWhitelist);
  router.get('/-/metrics', async (ctx) => {
    if (!whitelist.allows(ctx.ip) || !(await requestSettings(ctx, deps)).prometheus_metrics_enabled) {
      ctx.status = 404;
      ctx.body = { error: '404 Not Found' };
      return;
    }
    const { contentType, body } = await metricsText();
    ctx.set('Content-Type', contentType);
    ctx.body = body;
  });
  return router;
}
