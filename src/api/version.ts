// GET /version: clients call it to recognise the server.
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { requireUser } from '../http/auth.js';

export const VERSION = '10.8.7-wharf';
export const REVISION = 'wharf';

export function versionRouter(_deps: Deps): Router {
  const router = new Router();
  router.get('/version', (ctx) => {
    requireUser(ctx);
    ctx.body = { version: VERSION, revision: REVISION };
  });
  return router;
}
