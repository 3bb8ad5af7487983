// Forks (GitLab 10.8 lib/api/projects.rb): POST /projects/:id/fork and GET /projects/:id/forks.
// Forking needs a user (401) who reads the project (404 "Project Not Found"); a `namespace`
// (id or full path) the user may not create projects in is "404 Target Namespace Not Found";
// a user without fork_project gets GitLab's model error, 409
// {"message":{"forked_from_project_id":["is forbidden"]}}, as does a taken name or path.
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import type { NamespaceRow } from '../store/rows.js';
import { requireUser } from '../http/auth.js';
import { ApiError, notFound } from '../http/errors.js';
import { p, parse } from '../http/params.js';
import { loadProject } from './loaders.js';
import { listProjects } from './projects.js';
import { findNamespaceByIdOrPath } from '../finders/namespaces.js';
import { canCreateProjectIn } from '../policy/groups.js';
import { projectAccess } from '../policy/projects.js';
import { can, projectSubject } from '../policy/can.js';
import { presentProject } from '../entities/project.js';
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
    ctx.body = await presentProject(deps, user, fork, { view: 'project', canAdmin: can(user, projectSubject(fork, access), 'admin_project') });
  });

  // ForkProjectsFinder: the direct forks the user may see, with the project list parameters.
  router.get('/projects/:id/forks', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    await listProjects(ctx, deps, { forkedFromId: loaded.project.id });
  });

  return router;
}
