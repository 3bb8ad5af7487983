// Placeholder: filled in by the namespaces API work.
import Router from '@koa/router';
import type { Deps } from '../deps.js';

export function namespacesRouter(_deps: Deps): Router {
  return new Router();
}
