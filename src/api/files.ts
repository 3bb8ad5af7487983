// Placeholder: filled in by the repository API work.
import Router from '@koa/router';
import type { Deps } from '../deps.js';

export function filesRouter(_deps: Deps): Router {
  return new Router();
}
