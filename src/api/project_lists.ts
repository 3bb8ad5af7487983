// Project lists (GitLab 10.8 ProjectsFinder behind lib/api/projects.rb): all visible projects,
// a user's personal projects, a group's projects; the forks list (forks.ts) shares the
// parameters and the rendering. One paged query, then one batch to present the page. Later
// GitLab's filters are taken too: `min_access_level` (11.2) on every list, and on a group's
// `with_shared` and `include_subgroups` (11.6).
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { NamespaceRow, ProjectRow, UserRow } from '../store/rows.js';
import { route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import type { Parsed } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { isAdmin } from '../policy/users.js';
import type { Visibility } from '../policy/levels.js';
import { findUserByIdOrUsername } from '../finders/users.js';
import { projectsQuery, type ProjectOrder } from '../finders/projects.js';
import { presentProjects } from './present_projects.js';
import { withNamespaces } from '../finders/projects.js';
import { groupListSchema, listSchema } from './project_params.js';
import { PROJECT_LIST_TOPICS } from '../store/count_cache.js';
import { cachedPage } from './core/page_cache.js';

export interface ListScope {
  personalOf?: UserRow;
  group?: NamespaceRow;
  /** A group's list: without the projects shared with it; with its subgroups' projects. */
  onlyOwned?: boolean;
  includeSubgroups?: boolean;
  forkedFromId?: number;
}

/**
 * One page of the projects `user` may see in `scope`, filtered by the list parameters: the
 * body of a list route (pagination headers set on ctx). Custom attributes (filter and
 * display) are an admin's only, as GitLab's global read_custom_attribute.
 */
export async function projectList(ctx: Koa.Context, deps: Deps, user: UserRow | null, f: Parsed<typeof listSchema>, scope: ListScope) {
  // A page shows projects with their owners, forks, shares, statistics and the caller's access.
  return cachedPage(ctx, deps, user, PROJECT_LIST_TOPICS, () => renderProjects(ctx, deps, user, f, scope));
}

async function renderProjects(ctx: Koa.Context, deps: Deps, user: UserRow | null, f: Parsed<typeof listSchema>, scope: ListScope): Promise<unknown[]> {
  const admin = isAdmin(user);
  const query = projectsQuery(deps.db, user, {
    archived: f.archived,
    visibility: f.visibility as Visibility | undefined,
    search: f.search || undefined,
    owned: f.owned,
    membership: f.membership,
    starred: f.starred,
    withIssuesEnabled: f.with_issues_enabled,
    withMergeRequestsEnabled: f.with_merge_requests_enabled,
    customAttributes: admin ? f.custom_attributes : undefined,
    minAccessLevel: f.min_access_level ?? undefined,
    personalOf: scope.personalOf,
    group: scope.group,
    onlyOwned: scope.onlyOwned,
    includeSubgroups: scope.includeSubgroups,
    forkedFromId: scope.forkedFromId,
    orderBy: f.order_by as ProjectOrder,
    sort: f.sort as 'asc' | 'desc',
  });
  const rows = await paginate<ProjectRow>(ctx, deps.db, query);
  const projects = await withNamespaces(deps.db, rows);
  return presentProjects(deps, user, projects, {
    view: f.simple || !user ? 'basic' : 'withAccess',
    statistics: f.statistics,
    customAttributes: admin && f.with_custom_attributes,
  });
}

/** Basic details for the anonymous and with `simple`, else with the user's access. */
export const PROJECT_LIST = { schema: 'ProjectWithAccess', list: true } as const;

export const projectListRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects',
    auth: 'anonymous',
    params: listSchema,
    summary: 'List the projects the user may see (filters, order, statistics)',
    response: PROJECT_LIST,
    handler: ({ ctx, deps, user, params }) => projectList(ctx, deps, user, params, {}),
  }),

  // By id or username, so not the route table's numeric 'user' load. Grape validates the
  // parameters first (400), then looks the user up (404).
  route({
    method: 'GET',
    path: '/users/:user_id/projects',
    auth: 'anonymous',
    params: listSchema,
    summary: "List a user's personal projects (by id or username)",
    response: PROJECT_LIST,
    handler: async ({ ctx, deps, user, path, params }) => {
      const owner = await findUserByIdOrUsername(deps.db, path.user_id);
      if (!owner) throw notFound('User');
      return projectList(ctx, deps, user, params, { personalOf: owner });
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/projects',
    auth: 'anonymous',
    load: 'group',
    params: groupListSchema,
    summary: "List a group's projects (with_shared, include_subgroups)",
    response: PROJECT_LIST,
    handler: ({ ctx, deps, user, group, params }) => projectList(ctx, deps, user, params, { group, onlyOwned: !params.with_shared, includeSubgroups: params.include_subgroups }),
  }),
];
