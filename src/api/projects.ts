// Placeholder: filled in by the projects API work.
import Router from '@koa/router';
import type { Deps } from '../deps.js';

export function projectsRouter(_deps: Deps): Router {
  return new Router();
}
