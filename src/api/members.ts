// Placeholder: filled in by the members API work.
import Router from '@koa/router';
import type { Deps } from '../deps.js';

export function membersRouter(_deps: Deps): Router {
  return new Router();
}
