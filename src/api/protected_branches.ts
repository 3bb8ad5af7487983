// Protected branches (GitLab 10.8 lib/api/protected_branches.rb) and the legacy
// branches/:branch/protect and /unprotect of lib/api/branches.rb. Everything needs master
// (admin_project), checked before the parameters; names arrive URL-encoded and may be
// wildcards (`release-*`, `feature%2F*`).
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { loadProject } from './loaders.js';
import { p, parse } from '../http/params.js';
import { recordNotFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { ALLOWED_ACCESS_LEVELS, type ProtectedBranchRule } from '../policy/branches.js';
import { MASTER } from '../policy/levels.js';
import { protectedBranchEntity } from '../entities/protected_branch.js';
import { createRule, destroyRule, findRule, legacyProtect, legacyUnprotect, rulesQuery } from '../services/protected_branches.js';
import { findBranch, present } from './branches.js';

const RULE_ROUTE = '/projects/:id/protected_branches/:name';

/** The rule named by the route, or GitLab's `find_by!` 404. */
async function findRoute(ctx: Koa.Context, deps: Deps, projectId: number): Promise<ProtectedBranchRule> {
  const rule = await findRule(deps.db, projectId, ctx.params.name);
  if (!rule) throw recordNotFound();
  return rule;
}

export function protectedBranchesRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/projects/:id/protected_branches', async (ctx) => {
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_project');
    const rows = await paginate<ProtectedBranchRule>(ctx, deps.db, rulesQuery(deps.db, project.id));
    ctx.body = rows.map(protectedBranchEntity);
  });

  router.get(RULE_ROUTE, async (ctx) => {
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_project');
    ctx.body = protectedBranchEntity(await findRoute(ctx, deps, project.id));
  });

  router.post('/projects/:id/protected_branches', async (ctx) => {
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_project');
    const v = parse(ctx, {
      name: p.string().required(),
      push_access_level: p.integer().values(ALLOWED_ACCESS_LEVELS),
      merge_access_level: p.integer().values(ALLOWED_ACCESS_LEVELS),
    });
    // Absent or null both mean master (AccessLevelParams' `||=`).
    const rule = await createRule(deps.db, project.id, {
      name: v.name,
      pushAccessLevel: v.push_access_level ?? MASTER,
      mergeAccessLevel: v.merge_access_level ?? MASTER,
    });
    ctx.status = 201;
    ctx.body = protectedBranchEntity(rule);
  });

  router.delete(RULE_ROUTE, async (ctx) => {
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_project');
    const rule = await findRoute(ctx, deps, project.id);
    checkUnmodifiedSince(ctx, rule.updated_at); // destroy_conditionally!
    await destroyRule(deps.db, rule);
    ctx.status = 204;
  });

  // Legacy (lib/api/branches.rb): the branch must exist; the answer is the Branch entity.
  router.put('/projects/:id/repository/branches/:branch/protect', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    // As Grape: the `before` filter (download_code), the parameters, then the endpoint's own check.
    loaded.authorize('download_code');
    const v = parse(ctx, { developers_can_push: p.boolean(), developers_can_merge: p.boolean() });
    loaded.authorize('admin_project');
    const { name, heads } = await findBranch(ctx, deps, loaded);
    await legacyProtect(deps.db, loaded.project.id, name, {
      developersCanPush: v.developers_can_push ?? undefined,
      developersCanMerge: v.developers_can_merge ?? undefined,
    });
    [ctx.body] = await present(deps, loaded.project, heads, [name]);
  });

  router.put('/projects/:id/repository/branches/:branch/unprotect', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('admin_project');
    const { name, heads } = await findBranch(ctx, deps, loaded);
    await legacyUnprotect(deps.db, loaded.project.id, name);
    [ctx.body] = await present(deps, loaded.project, heads, [name]);
  });

  return router;
}
