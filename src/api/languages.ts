// The languages of a project's repository (GitLab 10.8 lib/api/projects.rb GET
// /projects/:id/languages): anyone who can see the project (10.8 asks nothing more), the
// default branch's byte share per language in percent (git/languages.ts), `{}` for an
// empty repository.
import { route, type Route } from './core/route.js';
import { repositoryOf } from './repo_context.js';
import { gitdirOf } from '../finders/projects.js';
import { languageShares } from '../git/languages.js';

export const languageRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/languages',
    auth: 'anonymous',
    load: 'project',
    summary: "The default branch's languages, as percentages of its bytes",
    handler: async ({ deps, project }) => {
      const head = await repositoryOf(deps, project).resolveCommit('HEAD');
      return head ? languageShares(gitdirOf(deps.repos, project), head) : {};
    },
  }),
];
