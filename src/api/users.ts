// Placeholder: filled in by the users API work.
import Router from '@koa/router';
import type { Deps } from '../deps.js';

export function usersRouter(_deps: Deps): Router {
  return new Router();
}
