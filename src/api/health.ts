// Liveness and readiness probes (outside /api/v4, as GitLab has them).
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { pingDatabase } from '../finders/health.js';

export function healthRouter(deps: Deps): Router {
  const router = new Router();
  router.get('/-/liveness', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/-/health', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'GitLab OK';
  });
  router.get('/-/readiness', async (ctx) => {
    const checks: Record<string, { status: string; message?: string }> = {};
    try {
      await pingDatabase(deps.db);
      checks.db_check = { status: 'ok' };
    } catch (err) {
      checks.db_check = { status: 'failed', message: (err as Error).message };
    }
    checks.repos_check = deps.repos ? { status: 'ok' } : { status: 'failed' };
    const ok = Object.values(checks).every((c) => c.status === 'ok');
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ok' : 'failed', ...checks };
  });
  return router;
}
