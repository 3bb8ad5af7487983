// Placeholder: filled in by the groups API work.
import Router from '@koa/router';
import type { Deps } from '../deps.js';

export function groupsRouter(_deps: Deps): Router {
  return new Router();
}
