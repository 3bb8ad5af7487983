// Forks (GitLab 10.8 lib/api/projects.rb): POST /projects/:id/fork and GET /projects/:id/forks.
// Forking needs a user (401) who reads the project (404 "Project Not Found"); a `namespace`
// (id or full path) the user may not create projects in is "404 Target Namespace Not Found";
// a user without fork_project gets GitLab's model error, 409
// {"message":{"forked_from_project_id":["is forbidden"]}}, as does a taken name or path.
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import type { NamespaceRow, ProjectRow } from '../store/rows.js';
import { currentUser, requireUser } from '../http/auth.js';
import { ApiError, notFound } from '../http/errors.js';
import { p, parse, type Parsed } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { loadProject } from './loaders.js';
import { listSchema } from './project_params.js';
import { projectsQuery, type ProjectOrder } from '../finders/projects.js';
import { findNamespaceByIdOrPath } from '../finders/namespaces.js';
import { canCreateProjectIn } from '../policy/groups.js';
import { can, projectAccess } from '../policy/projects.js';
import { isAdmin } from '../policy/users.js';
import type { Visibility } from '../policy/levels.js';
import { presentProject, presentProjects, withNamespaces } from '../entities/project.js';
import { forkProject } from '../services/forks.js';

export function forksRouter(deps: Deps): Router {
  const router = new Router();

  router.post('/projects/:id/fork', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const v = parse(ctx, { namespace: p.string() });
    let namespace: NamespaceRow | undefined;
    if (v.namespace !== undefined && v.namespace !== null && v.namespace !== '') {
      namespace = await findNamespaceByIdOrPath(deps.db, v.namespace);
      if (!namespace || !(await canCreateProjectIn(deps.db, user, namespace))) throw notFound('Target Namespace');
    } else {
      namespace = await deps.db('namespaces').where({ kind: 'user', owner_id: user.id }).first();
      if (!namespace) throw notFound('Target Namespace');
    }
    if (!loaded.can('fork_project')) throw new ApiError(409, { message: { forked_from_project_id: ['is forbidden'] } });
    const fork = await forkProject(deps, user, loaded.project, namespace);
    ctx.status = 201;
    const access = await projectAccess(deps.db, user, fork);
    ctx.body = await presentProject(deps, user, fork, { view: 'project', canAdmin: can(user, fork, access, 'admin_project') });
  });

  // ForkProjectsFinder: the direct forks the user may see, with the project list parameters.
  router.get('/projects/:id/forks', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    const user = currentUser(ctx);
    const f: Parsed<typeof listSchema> = parse(ctx, listSchema);
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
      orderBy: f.order_by as ProjectOrder,
      sort: f.sort as 'asc' | 'desc',
    }).where('projects.forked_from_id', loaded.project.id);
    const rows = await paginate<ProjectRow>(ctx, deps.db, query);
    const projects = await withNamespaces(deps.db, rows);
    ctx.body = await presentProjects(deps, user, projects, {
      view: f.simple || !user ? 'basic' : 'withAccess',
      statistics: f.statistics,
      customAttributes: admin && f.with_custom_attributes,
    });
  });

  return router;
}
