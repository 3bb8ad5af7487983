// Mounts a route table (route.ts) on a router: the steps every endpoint shares, once, in
// GitLab's order (Grape's `authenticate!`, then the `user_project`/`user_group` lookup, then
// `authorize!`, then the declared parameters):
//   1. authentication: 'user' routes answer 401 to the anonymous, 'admin' routes also 403 to
//      non-admins (requireUser / requireAdmin); 'anonymous' and 'by_ability' routes let
//      everyone on (the latter's ability answers 401 to the anonymous, step 3);
//   2. load the subject of `:id`: 404 when it is missing or the user may not see it (never 403
//      for a private project's existence);
//   3. the route's ability on it: 403, or 401 when nobody is signed in (401 for everyone on a
//      route declaring `denied: 401`);
//   4. parameters: 400 {"error": "..."} in Grape's words (a route declaring `paramsFirst`
//      checks them right after step 1, as Grape does for endpoints that look up their project
//      or group in their body);
//   4b. a route with an `item` (a merge request of the project) finds it now (404), then asks
//      the route's ability of it, as step 3 would, instead of at step 3;
//   5. the handler, whose return value becomes the body with the route's status.
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../store/rows.js';
import { currentUser, requireAdmin, requireUser } from '../../http/auth.js';
import { forbidden, notFound, paramError, unauthorized } from '../../http/errors.js';
import { parseValues, rawParams } from '../../http/params.js';
import { findUserById } from '../../finders/users.js';
import { can, type Ability } from '../../policy/can.js';
import { loadGroupSubject, loadMergeRequestItem, loadProject, type LoadedProject } from './loaders.js';
import { HANDLED, statusOf, takesBody, type Route, type RouteRequest } from './route.js';

/** The router layers of routes that read a request body (route.ts takesBody). */
const bodyLayers = new WeakSet<object>();

/** The methods of the routes that read a body: a request of another method never has its
 * body read, so the route it goes to need not be looked up for that (a GET is matched once). */
const bodyMethods = new Set<string>();

/** Whether a request of `method` may go to a route that reads a body. */
export function methodMayTakeBody(method: string): boolean {
  return bodyMethods.has(method === 'HEAD' ? 'GET' : method);
}

/** Whether one of the layers a request matched belongs to a route that reads a body. */
export function matchTakesBody(layers: readonly object[]): boolean {
  return layers.some((l) => bodyLayers.has(l));
}

function authenticate(ctx: Koa.Context, r: Route): UserRow | null {
  if (r.auth === 'admin') return requireAdmin(ctx);
  if (r.auth === 'user') return requireUser(ctx);
  return currentUser(ctx);
}

type Loaded = { part: Record<string, unknown>; can: (ability: Ability) => boolean };

/**
 * Users are named by number only: `/users/:id` with anything else belongs to another route
 * (Grape's digits-only `id` requirement); a number too large for an id is 404 User Not Found.
 */
function notThisRoute(ctx: Koa.Context, r: Route): boolean {
  return r.load === 'user' && !/^\d+$/.test(ctx.params.id ?? '');
}

/** Step 2: the route's subject and the ability check bound to it. */
async function load(ctx: Koa.Context, deps: Deps, r: Route, user: UserRow | null): Promise<Loaded> {
  switch (r.load) {
    case 'project': {
      const loaded = await loadProject(ctx, deps);
      return { part: { project: loaded.project, access: loaded.access, loaded }, can: (a) => can(user, loaded.subject, a as never) };
    }
    case 'group': {
      const subject = await loadGroupSubject(ctx, deps);
      return { part: { group: subject.group, subject }, can: (a) => can(user, subject, a as never) };
    }
    case 'user': {
      const target = await findUserById(deps.db, ctx.params.id);
      if (!target) throw notFound('User');
      return { part: { target }, can: (a) => can(user, { kind: 'user', user: target }, a as never) };
    }
    default:
      return { part: {}, can: () => false };
  }
}

/** Step 4b: the route's item in the loaded project, and the ability check bound to it. */
async function loadItem(ctx: Koa.Context, deps: Deps, r: Route, user: UserRow | null, part: Record<string, unknown>): Promise<Loaded> {
  if (r.item !== 'merge_request' || !part.loaded) throw new Error(`route ${r.method} ${r.path}: an item needs load: 'project'`);
  const item = await loadMergeRequestItem(ctx, deps, part.loaded as LoadedProject);
  return { part: { mergeRequest: item.mergeRequest }, can: (a) => can(user, item.subject, a as never) };
}

/**
 * Step 4 for the path of a route on a loaded subject: a NUL in a path parameter other than
 * `:id` (a branch, a key, a file path of the project, group or user) names nothing git or the
 * database can hold: 400 "<name> is invalid", as a declared string parameter answers
 * (http/params.ts), on either engine.
 */
function refuseNulInPath(ctx: Koa.Context): void {
  for (const [name, value] of Object.entries(ctx.params as Record<string, string>)) {
    if (name !== 'id' && typeof value === 'string' && value.includes('\u0000')) throw paramError(`${name} is invalid`);
  }
}

function handlerOf(deps: Deps, r: Route): Koa.Middleware {
  const status = statusOf(r);
  return async (ctx, next) => {
    if (notThisRoute(ctx, r)) return next();
    const user = authenticate(ctx, r);
    const parse = () => (r.params ? parseValues({ ...rawParams(ctx), ...ctx.params }, r.params, r.rules) : {});
    const early = r.paramsFirst ? parse() : undefined;
    const loaded = await load(ctx, deps, r, user);
    const refuse = () => (user && r.denied !== 401 ? forbidden() : unauthorized());
    const authorize = (ability: Ability) => {
      if (!loaded.can(ability)) throw refuse();
    };
    if (r.ability && !r.item) authorize(r.ability);
    if (r.load) refuseNulInPath(ctx);
    const params = early ?? parse();
    const item = r.item ? await loadItem(ctx, deps, r, user, loaded.part) : undefined;
    if (item && r.ability && !item.can(r.ability)) throw refuse();
    const req = { ctx, deps, user, params, path: ctx.params, authorize, can: loaded.can, ...loaded.part, ...item?.part };
    const result = await r.handler(req as unknown as RouteRequest<'anonymous', undefined, {}>);
    if (result === HANDLED) return;
    ctx.status = status;
    if (result !== undefined) ctx.body = result;
  };
}

/** Registers every route of `routes` on `router`. */
export function mount(router: Router, deps: Deps, routes: readonly Route[]): void {
  for (const r of routes) {
    if (r.auth === 'by_ability' && !r.ability) throw new Error(`route ${r.method} ${r.path}: 'by_ability' needs an ability`);
    router.register(r.path, [r.method], handlerOf(deps, r));
    if (takesBody(r)) {
      bodyLayers.add(router.stack[router.stack.length - 1]);
      bodyMethods.add(r.method);
    }
  }
}
