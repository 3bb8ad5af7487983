// The route table's contract: every endpoint of /api/v4 declared once, as data.
//
// HOW TO DECLARE A ROUTE (see labels.ts, milestones.ts, branches.ts, protected_branches.ts
// and files.ts for worked examples)
//
// 1. The family file (src/api/<family>.ts) exports its table, `export const <family>Routes:
//    Route[] = [route({...}), ...]`.
// 2. List it in src/api/core/route_tables.ts (mounted by app.ts's apiRouter, printed by `make
//    routes`, read by the OpenAPI generator).
// 3. Each route:
//
//   route({
//     method: 'POST',                        // GET (also answers HEAD), POST, PUT, DELETE
//     path: '/projects/:id/labels',          // relative to /api/v4, @koa/router syntax
//     auth: 'user',                          // 'anonymous' (open to anyone the project's
//                                            // visibility lets in: reads; req.user may be
//                                            // null), 'by_ability' (no sign-in asked by the
//                                            // framework: the ability decides, and answers 401
//                                            // to the anonymous — writes GitLab guards with
//                                            // `authorize!` alone; req.user may be null),
//                                            // 'user' (else 401), 'admin' (401, else 403)
//     load: 'project',                       // optional, always from `:id`: 'project' (404
//                                            // Project Not Found when missing or invisible),
//                                            // 'group' (404 Group Not Found), 'user' (digits
//                                            // only, else not this route; 404 User Not Found)
//     ability: 'admin_label',                // optional: GitLab's ability on that subject, typed
//                                            // per subject (policy/can.ts); 403, or 401 when
//                                            // nobody is signed in
//     item: 'merge_request',                 // optional, 'project' routes: the ability is the
//                                            // item's, asked once the parameters are parsed and
//                                            // the item is found (`:merge_request_iid`, 404 Not
//                                            // found), as GitLab finds it before authorize!
//     denied: 401,                           // optional: a refused ability answers 401 to
//                                            // everyone (Grape's `unauthorized!`), not 403
//     paramsFirst: true,                     // optional: parameters (400) before the load (404),
//                                            // for endpoints that load in their body (search)
//     params: { name: p.string().required(), color: p.string().required() },  // http/params.ts
//     rules: { atLeastOneOf: ['color'] },    // optional, http/params.ts Rules
//     status: 201,                           // optional: 201 for POST, 204 for DELETE, else 200
//     summary: 'Create a label',             // one line, for `make routes` and OpenAPI
//     response: { schema: 'Label' },         // optional: the entity's schema name (list: true
//                                            // for an array)
//     handler: async ({ deps, user, project, access, params }) => presentLabel(...),
//   })
//
// `mount()` (mount.ts) runs the shared steps in GitLab's order — authentication (401/403) →
// load the subject (404) → ability (403/401) → parameters (400 {"error": ...}), or with an
// `item`: parameters → the item (404) → its ability — and only then calls the handler, so a handler never calls requireUser, loadProject, authorize or parse.
// `params` are parsed from the query, the body and the path (the path wins, as in Grape: declare
// `milestone_id: p.integer().required()` to get "milestone_id is invalid"), typed from the schema.
//
// The handler receives `req` (RouteRequest): ctx, deps, user (typed non-null unless auth is
// 'anonymous' or 'by_ability'), params, path (the raw path parameters, decoded),
// `authorize(ability)` and `can(ability)` on the loaded subject, and what was loaded:
// `project`, `access` and `loaded` (LoadedProject, what services take) for 'project'; `group`
// and `subject` for 'group'; `target` for 'user'; `mergeRequest` for the item
// 'merge_request'. Checks GitLab makes later than the route's ability (a second ability
// after the parameters, as the legacy protect route; an ability that depends on a parameter)
// are `req.authorize(...)` calls in the handler. Abilities on sub-objects (an issue, a note)
// are asked with `can(user, subject, ability)` from policy/can.ts; never test levels or
// `project.archived` in api/. Failures are thrown (ApiError from http/errors.ts).
//
// What the handler returns is the response: a value becomes the body with the route's status;
// `undefined` answers the status with no body (204); `HANDLED` means the handler wrote
// ctx.status / ctx.body / headers itself (streams, HEAD, a 304) and mount leaves them alone.
// Lists call paginate(req.ctx, ...) (it sets the headers) and return the page.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import type { NamespaceRow, ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { Parsed, Rules, Schema } from '../../http/params.js';
import type { ProjectAccess } from '../../policy/projects.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import type { GroupAbility, GroupSubject, MergeRequestAbility, ProjectAbility, UserAbility } from '../../policy/can.js';
import type { LoadedProject } from './loaders.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Who the framework lets through before the ability (see the route comment above). */
export type Auth = 'anonymous' | 'by_ability' | 'user' | 'admin';
export type Load = 'project' | 'group' | 'user';
/** What a 'project' route finds in the project before asking its ability. */
export type Item = 'merge_request';

/** The abilities a route may require of what it loads (of its item, when it has one). */
type AbilityFor<L extends Load | undefined, I extends Item | undefined = undefined> = I extends 'merge_request'
  ? MergeRequestAbility
  : L extends 'project'
    ? ProjectAbility
    : L extends 'group'
      ? GroupAbility
      : L extends 'user'
        ? UserAbility
        : never;

/** What a 'project' route's handler gets. */
interface ProjectRequest {
  project: ProjectWithNamespace;
  access: ProjectAccess;
  /** The project, access, user and policy subject together (what services and helpers take). */
  loaded: LoadedProject;
}

/** What a 'group' route's handler gets. */
interface GroupRequest {
  group: NamespaceRow;
  /** The policy subject (the user's level on the group). */
  subject: GroupSubject;
}

/** What a 'user' route's handler gets: the user named by `:id`. */
interface UserRequest {
  target: UserRow;
}

type LoadedPart<L> = L extends 'project' ? ProjectRequest : L extends 'group' ? GroupRequest : L extends 'user' ? UserRequest : unknown;

/** What a route with the item 'merge_request' gets: the merge request of `:merge_request_iid`. */
interface MergeRequestItem {
  mergeRequest: MergeRequestRow;
}

type ItemPart<I> = I extends 'merge_request' ? MergeRequestItem : unknown;

type RequestUser<A extends Auth> = A extends 'anonymous' | 'by_ability' ? UserRow | null : UserRow;

export type RouteRequest<A extends Auth, L extends Load | undefined, S extends Schema, I extends Item | undefined = undefined> = {
  ctx: Koa.Context;
  deps: Deps;
  user: RequestUser<A>;
  params: Parsed<S>;
  /** The path's parameters as @koa/router decoded them (`id`, `label_id`, ...). */
  path: Record<string, string>;
  /** 403 (401 when nobody is signed in) unless the user has `ability` on the loaded subject. */
  authorize(ability: AbilityFor<L>): void;
  can(ability: AbilityFor<L>): boolean;
} & LoadedPart<L> &
  ItemPart<I>;

/** Documentation of the success body, for the OpenAPI document. */
interface ResponseDoc {
  /** A schema name: one of GitLab 10.8's (src/api/core/openapi/gitlab-10.8-schemas), or Wharf's own. */
  schema?: string;
  /** The body is an array of it. */
  list?: boolean;
}

export interface RouteSpec<A extends Auth, L extends Load | undefined, S extends Schema, I extends Item | undefined = undefined> {
  method: Method;
  path: string;
  auth: A;
  load?: L;
  item?: I;
  ability?: AbilityFor<L, I>;
  /** A refused ability answers 401 to signed-in users too (Grape's `unauthorized!`); 403 otherwise. */
  denied?: 401;
  /**
   * The parameters are checked before the subject is loaded (400 before 404): for endpoints
   * that look up `user_project`/`user_group` in their body, after Grape's validation, and
   * declare no ability.
   */
  paramsFirst?: true;
  params?: S;
  rules?: Rules;
  /** The route reads a request body (see takesBody for the default). */
  body?: boolean;
  /** The success status (see statusOf for the default). */
  status?: number;
  summary: string;
  response?: ResponseDoc;
  handler(req: RouteRequest<A, L, S, I>): unknown;
}

/** A route of a table, its types erased (what mount, `make routes` and OpenAPI read). */
export type Route = Omit<RouteSpec<Auth, Load | undefined, Schema, Item | undefined>, 'handler' | 'ability'> & {
  ability?: ProjectAbility | GroupAbility | UserAbility | MergeRequestAbility;
  handler(req: RouteRequest<Auth, Load | undefined, Schema, Item | undefined>): unknown;
};

/** Returned by a handler that wrote the response itself. */
export const HANDLED: unique symbol = Symbol('handled');

/** Declares a route; its handler's request is typed from `auth`, `load`, `item` and `params`. */
export function route<A extends Auth, S extends Schema = {}, L extends Load | undefined = undefined, I extends Item | undefined = undefined>(spec: RouteSpec<A, L, S, I>): Route {
  return spec as unknown as Route;
}

/** The success status: as declared, else 201 for POST, 204 for DELETE, 200 otherwise. */
export function statusOf(r: Route): number {
  return r.status ?? (r.method === 'POST' ? 201 : r.method === 'DELETE' ? 204 : 200);
}

/** Whether the route reads a body: as declared, else a POST, PUT or DELETE with parameters. */
export function takesBody(r: Route): boolean {
  return r.body ?? (r.method !== 'GET' && !!r.params && Object.keys(r.params).length > 0);
}
