// Branches (GitLab 10.8 lib/api/branches.rb): list (with `search`), get (HEAD: 204/404),
// create, delete, and delete every merged branch. Reading needs download_code, writing
// push_code; branch names with slashes arrive URL-encoded.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { HANDLED, route, type Route } from './core/route.js';
import { p } from '../http/params.js';
import { badRequest, notFound } from '../http/errors.js';
import { paginateArray } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findProjectByIdOrPath, gitdirOf } from '../finders/projects.js';
import { BranchRules } from '../policy/branches.js';
import { isValidBranchName } from '../git/ref_names.js';
import { listBranchHeads } from '../git/refs.js';
import { mergedInto } from '../git/history.js';
import { RepoReader } from '../git/reader.js';
import { branchEntity, type BranchEntity } from '../entities/branch.js';
import { gitTime } from '../entities/commit.js';
import { createBranch, deleteBranch, deleteMergedBranches } from '../services/repository/branch_writes.js';

const BRANCH_ROUTE = '/projects/:id/repository/branches/:branch';

/** Branch entities for `names` (each with its head in `heads`). Also used by the protect routes. */
export async function present(deps: Deps, project: ProjectWithNamespace, heads: Map<string, string>, names: string[]): Promise<BranchEntity[]> {
  const gitdir = gitdirOf(deps.repos, project);
  const reader = new RepoReader(gitdir);
  const root = project.default_branch ? heads.get(project.default_branch) : undefined;
  const tips = new Map(names.map((n) => [n, heads.get(n)!]));
  const merged = root ? await mergedInto(gitdir, root, tips) : new Set<string>();
  const rules = await BranchRules.load(deps.db, project); // once for the whole page
  return Promise.all(
    names.map(async (name) =>
      branchEntity(name, await reader.commit(tips.get(name)!), {
        merged: merged.has(name),
        protected: rules.isProtected(name),
        developersCanPush: rules.developersCan(name, 'push'),
        developersCanMerge: rules.developersCan(name, 'merge'),
      }),
    ),
  );
}

/** The branch named `name` and its head: 400 for a name git cannot have, 404 when absent. */
export async function findBranch(deps: Deps, project: ProjectWithNamespace, name: string): Promise<{ name: string; head: string; heads: Map<string, string> }> {
  if (!isValidBranchName(name)) throw badRequest('The branch refname is invalid');
  const heads = await listBranchHeads(gitdirOf(deps.repos, project));
  const head = heads.get(name);
  if (!head) throw notFound('Branch');
  return { name, head, heads };
}

const BRANCH = { schema: 'Branch' } as const;

export const branchRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/branches',
    auth: 'anonymous',
    load: 'project',
    ability: 'download_code',
    params: { search: p.anyString() },
    summary: "List a repository's branches",
    response: { ...BRANCH, list: true },
    handler: async ({ ctx, deps, project, params: { search } }) => {
      const heads = await listBranchHeads(gitdirOf(deps.repos, project));
      let names = [...heads.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      // Case-insensitive substring, as BranchesFinder; a blank search filters nothing.
      if (search) names = names.filter((n) => n.toUpperCase().includes(search.toUpperCase()));
      return present(deps, project, heads, paginateArray(ctx, names));
    },
  }),

  // Also answers HEAD: 204 when the branch exists, 404 when not, both without a body.
  route({
    method: 'GET',
    path: BRANCH_ROUTE,
    auth: 'anonymous',
    load: 'project',
    ability: 'download_code',
    summary: 'Get a branch (HEAD: 204 when it exists, else 404)',
    response: BRANCH,
    handler: async ({ ctx, deps, project, path }) => {
      if (ctx.method === 'HEAD') {
        const heads = await listBranchHeads(gitdirOf(deps.repos, project));
        ctx.status = heads.has(path.branch) ? 204 : 404;
        return HANDLED;
      }
      const { name, heads } = await findBranch(deps, project, path.branch);
      return (await present(deps, project, heads, [name]))[0];
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/branches',
    auth: 'by_ability',
    load: 'project',
    ability: 'push_code',
    params: { branch: p.string().required(), ref: p.string().required() },
    summary: 'Create a branch from a ref',
    response: BRANCH,
    handler: async ({ deps, loaded, params: v }) => {
      await createBranch(deps, loaded, v.branch, v.ref);
      // The default branch may have just been set.
      const fresh = (await findProjectByIdOrPath(deps.db, String(loaded.project.id))) ?? loaded.project;
      const heads = await listBranchHeads(gitdirOf(deps.repos, fresh));
      return (await present(deps, fresh, heads, [v.branch]))[0];
    },
  }),

  route({
    method: 'DELETE',
    path: BRANCH_ROUTE,
    auth: 'by_ability',
    load: 'project',
    ability: 'push_code',
    summary: 'Delete a branch',
    handler: async ({ ctx, deps, loaded, path }) => {
      const { name, head } = await findBranch(deps, loaded.project, path.branch);
      const commit = await new RepoReader(gitdirOf(deps.repos, loaded.project)).commit(head);
      checkUnmodifiedSince(ctx, gitTime(commit.author.timestamp));
      await deleteBranch(deps, loaded, name, head);
    },
  }),

  // GitLab 10.8 queues the deletion and answers 202 to any reader, its worker then refusing
  // non-developers silently; Wharf deletes before answering and refuses them with 403.
  route({
    method: 'DELETE',
    path: '/projects/:id/repository/merged_branches',
    auth: 'by_ability',
    load: 'project',
    ability: 'push_code',
    status: 202,
    summary: 'Delete every branch merged into the default branch (202)',
    handler: async ({ deps, loaded }) => {
      await deleteMergedBranches(deps, loaded);
      return { message: '202 Accepted' };
    },
  }),
];
