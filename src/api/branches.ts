// Branches (GitLab 10.8 lib/api/branches.rb): list (with `search`), get (HEAD: 204/404),
// create, delete, and delete every merged branch. Reading needs download_code, writing
// push_code; branch names with slashes arrive URL-encoded.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { loadProject, type LoadedProject } from './loaders.js';
import { p, parse } from '../http/params.js';
import { badRequest, notFound } from '../http/errors.js';
import { paginateArray } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { fullPathOf } from '../finders/projects.js';
import { BranchRules } from '../policy/branches.js';
import { isValidBranchName } from '../git/ref_names.js';
import { listBranchHeads } from '../git/refs.js';
import { mergedInto } from '../git/history.js';
import { RepoReader } from '../git/reader.js';
import { branchEntity, type BranchEntity } from '../entities/branch.js';
import { gitTime } from '../entities/commit.js';
import { createBranch, deleteBranch, deleteMergedBranches } from '../services/branch_writes.js';

const BRANCH_ROUTE = '/projects/:id/repository/branches/:branch';

/** Branch entities for `names` (each with its head in `heads`). Also used by the protect routes. */
export async function present(deps: Deps, project: ProjectWithNamespace, heads: Map<string, string>, names: string[]): Promise<BranchEntity[]> {
  const gitdir = deps.repos.pathFor(fullPathOf(project));
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

/** The branch of the route and its head: 400 for a name git cannot have, 404 when absent. */
export async function findBranch(ctx: Koa.Context, deps: Deps, loaded: LoadedProject): Promise<{ name: string; head: string; heads: Map<string, string> }> {
  const name: string = ctx.params.branch;
  if (!isValidBranchName(name)) throw badRequest('The branch refname is invalid');
  const heads = await listBranchHeads(deps.repos.pathFor(fullPathOf(loaded.project)));
  const head = heads.get(name);
  if (!head) throw notFound('Branch');
  return { name, head, heads };
}

export function branchesRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/projects/:id/repository/branches', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('download_code');
    const { search } = parse(ctx, { search: p.string() });
    const heads = await listBranchHeads(deps.repos.pathFor(fullPathOf(loaded.project)));
    let names = [...heads.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    // Case-insensitive substring, as BranchesFinder; a blank search filters nothing.
    if (search) names = names.filter((n) => n.toUpperCase().includes(search.toUpperCase()));
    ctx.body = await present(deps, loaded.project, heads, paginateArray(ctx, names));
  });

  // Also answers HEAD: 204 when the branch exists, 404 when not, both without a body.
  router.get(BRANCH_ROUTE, async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('download_code');
    if (ctx.method === 'HEAD') {
      const heads = await listBranchHeads(deps.repos.pathFor(fullPathOf(loaded.project)));
      ctx.status = heads.has(ctx.params.branch) ? 204 : 404;
      return;
    }
    const { name, heads } = await findBranch(ctx, deps, loaded);
    [ctx.body] = await present(deps, loaded.project, heads, [name]);
  });

  router.post('/projects/:id/repository/branches', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('push_code');
    const v = parse(ctx, { branch: p.string().required(), ref: p.string().required() });
    await createBranch(deps, loaded, v.branch, v.ref);
    const fresh = await loadProject(ctx, deps); // the default branch may have just been set
    const heads = await listBranchHeads(deps.repos.pathFor(fullPathOf(fresh.project)));
    [ctx.body] = await present(deps, fresh.project, heads, [v.branch]);
    ctx.status = 201;
  });

  router.delete(BRANCH_ROUTE, async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('push_code');
    const { name, head } = await findBranch(ctx, deps, loaded);
    const commit = await new RepoReader(deps.repos.pathFor(fullPathOf(loaded.project))).commit(head);
    checkUnmodifiedSince(ctx, gitTime(commit.author.timestamp));
    await deleteBranch(deps, loaded, name, head);
    ctx.status = 204;
  });

  // GitLab 10.8 queues the deletion and answers 202 to any reader, its worker then refusing
  // non-developers silently; Wharf deletes before answering and refuses them with 403.
  router.delete('/projects/:id/repository/merged_branches', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('push_code');
    await deleteMergedBranches(deps, loaded);
    ctx.status = 202;
    ctx.body = { message: '202 Accepted' };
  });

  return router;
}
