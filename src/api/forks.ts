// Forks (GitLab 10.8 lib/api/projects.rb): POST /projects/:id/fork and GET /projects/:id/forks.
// Forking needs a user (401) who reads the project (404 "Project Not Found"); a `namespace`
// (id or full path) the user may not create projects in (create_projects) is "404 Target
// Namespace Not Found"; a user without fork_project gets GitLab's model error, 409
// {"message":{"forked_from_project_id":["is forbidden"]}}, as does a taken name or path — so
// fork_project is asked in the handler, after the namespace, not declared as a 403.
import type { Deps } from '../deps.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { route, type Route } from './core/route.js';
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
