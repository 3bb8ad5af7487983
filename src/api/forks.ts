// Forks (GitLab 10.8 lib/api/projects.rb): POST /projects/:id/fork and GET /projects/:id/forks.
// Forking needs a user (401) who reads the project (404 "Project Not Found"); a `namespace`
// (id or full path) the user may not create projects in (create_projects) is "404 Target
// Namespace Not Found"; a user without fork_project gets GitLab's model error, 409
// {"message":{"forked_from_project_id":["is forbidden"]}}, as does a taken name or path — so
// fork_project is asked in the handler, after the namespace, not declared as a 403.
// An admin marks a project as a fork of another (POST /projects/:id/fork/:forked_from_id: 409
// "Project already forked" when it is one); an owner unmarks it (DELETE /projects/:id/fork:
// 204, or 304 when it was no fork), services/projects/fork_links.ts.
import type { Deps } from '../deps.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { HANDLED, route, type Route } from './core/route.js';
import { ApiError, notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { listSchema } from './project_params.js';
import { PROJECT_LIST, projectList } from './project_lists.js';
import { findNamespaceByIdOrPath, findPersonalNamespace } from '../finders/namespaces.js';
import { namespaceFacts } from '../policy/namespaces.js';
import { projectAccess } from '../policy/projects.js';
import { can, projectSubject } from '../policy/can.js';
import { presentProject } from './present_projects.js';
import { forkProject } from '../services/projects/forks.js';
import { linkFork, unlinkFork } from '../services/projects/fork_links.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { checkUnmodifiedSince } from '../http/conditional.js';

/** The fork's namespace: the one named (if the user may create projects in it), else the user's own. */
async function targetNamespace(deps: Deps, user: UserRow, named: string | undefined): Promise<NamespaceRow> {
  let namespace: NamespaceRow | undefined;
  if (named !== undefined && named !== null && named !== '') {
    namespace = await findNamespaceByIdOrPath(deps.db, named);
    if (namespace && !can(user, { kind: 'namespace', ...(await namespaceFacts(deps.db, user, namespace)) }, 'create_projects')) namespace = undefined;
  } else {
    namespace = await findPersonalNamespace(deps.db, user.id);
  }
  if (!namespace) throw notFound('Target Namespace');
  return namespace;
}

export const forkRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/projects/:id/fork',
    auth: 'user',
    load: 'project',
    params: { namespace: p.string() },
    summary: 'Fork a project into your namespace or a given one',
    response: { schema: 'Project' },
    handler: async ({ deps, user, project, can: may, params }) => {
      const namespace = await targetNamespace(deps, user, params.namespace);
      if (!may('fork_project')) throw new ApiError(409, { message: { forked_from_project_id: ['is forbidden'] } });
      const fork = await forkProject(deps, user, project, namespace);
      const access = await projectAccess(deps.db, user, fork);
      return presentProject(deps, user, fork, { view: 'project', canAdmin: can(user, projectSubject(fork, access), 'admin_project') });
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/fork/:forked_from_id',
    auth: 'admin',
    load: 'project',
    summary: 'Mark a project as forked from another (admins)',
    response: { schema: 'Project' },
    handler: async ({ deps, user, project, path }) => {
      const parent = await findProjectByIdOrPath(deps.db, path.forked_from_id);
      if (!parent) throw notFound('Project');
      if (!(await linkFork(deps, project, parent))) throw new ApiError(409, { message: 'Project already forked' });
      const linked = (await findProjectByIdOrPath(deps.db, String(project.id)))!;
      return presentProject(deps, user, linked, { view: 'project' });
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/fork',
    auth: 'user',
    load: 'project',
    ability: 'remove_fork_project',
    summary: 'Remove the forked-from relation (304 when the project is no fork)',
    handler: async ({ ctx, deps, user, project }) => {
      checkUnmodifiedSince(ctx, project.updated_at);
      if (await unlinkFork(deps, project, user)) return undefined;
      ctx.status = 304;
      return HANDLED;
    },
  }),

  // ForkProjectsFinder: the direct forks the user may see, with the project list parameters.
  route({
    method: 'GET',
    path: '/projects/:id/forks',
    auth: 'anonymous',
    load: 'project',
    params: listSchema,
    summary: "List a project's direct forks the user may see",
    response: PROJECT_LIST,
    handler: ({ ctx, deps, user, project, params }) => projectList(ctx, deps, user, params, { forkedFromId: project.id }),
  }),
];
