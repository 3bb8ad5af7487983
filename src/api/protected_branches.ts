// Protected branches (GitLab 10.8 lib/api/protected_branches.rb) and the legacy
// branches/:branch/protect and /unprotect of lib/api/branches.rb. Everything needs master
// (admin_project), checked before the parameters; names arrive URL-encoded and may be
// wildcards (`release-*`, `feature%2F*`).
import type { Deps } from '../deps.js';
import { route, type Route } from './core/route.js';
import { p } from '../http/params.js';
import { recordNotFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { ALLOWED_ACCESS_LEVELS } from '../policy/branches.js';
import type { ProtectedBranchRule } from '../store/rows.js';
import { MASTER } from '../policy/levels.js';
import { protectedBranchEntity } from '../entities/protected_branch.js';
import { createRule, destroyRule, findRule, legacyProtect, legacyUnprotect, rulesQuery } from '../services/repository/protected_branches.js';
import { findBranch, present } from './branches.js';

const RULE_ROUTE = '/projects/:id/protected_branches/:name';
const RULE = { schema: 'ProtectedBranch' } as const;

/** The rule named by the route, or GitLab's `find_by!` 404. */
async function ruleOr404(deps: Deps, projectId: number, name: string): Promise<ProtectedBranchRule> {
  const rule = await findRule(deps.db, projectId, name);
  if (!rule) throw recordNotFound();
  return rule;
}

export const protectedBranchRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/protected_branches',
    auth: 'by_ability',
    load: 'project',
    ability: 'admin_project',
    summary: "List a project's protected branch rules",
    response: { ...RULE, list: true },
    handler: async ({ ctx, deps, project }) => (await paginate<ProtectedBranchRule>(ctx, deps.db, rulesQuery(deps.db, project.id))).map(protectedBranchEntity),
  }),

  route({
    method: 'GET',
    path: RULE_ROUTE,
    auth: 'by_ability',
    load: 'project',
    ability: 'admin_project',
    summary: 'Get a protected branch rule (exact name or wildcard)',
    response: RULE,
    handler: async ({ deps, project, path }) => protectedBranchEntity(await ruleOr404(deps, project.id, path.name)),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/protected_branches',
    auth: 'by_ability',
    load: 'project',
    ability: 'admin_project',
    params: {
      name: p.string().required(),
      push_access_level: p.integer().values(ALLOWED_ACCESS_LEVELS),
      merge_access_level: p.integer().values(ALLOWED_ACCESS_LEVELS),
    },
    summary: 'Protect a branch or wildcard (levels 0, 30, 40)',
    response: RULE,
    handler: async ({ deps, project, params: v }) =>
      // Absent or null both mean master (AccessLevelParams' `||=`).
      protectedBranchEntity(
        await createRule(deps.db, project.id, { name: v.name, pushAccessLevel: v.push_access_level ?? MASTER, mergeAccessLevel: v.merge_access_level ?? MASTER }),
      ),
  }),

  route({
    method: 'DELETE',
    path: RULE_ROUTE,
    auth: 'by_ability',
    load: 'project',
    ability: 'admin_project',
    summary: 'Unprotect a branch or wildcard',
    handler: async ({ ctx, deps, project, path }) => {
      const rule = await ruleOr404(deps, project.id, path.name);
      checkUnmodifiedSince(ctx, rule.updated_at); // destroy_conditionally!
      await destroyRule(deps.db, rule);
    },
  }),

  // Legacy (lib/api/branches.rb): the branch must exist; the answer is the Branch entity.
  // As Grape: the `before` filter (download_code), the parameters, then the endpoint's own check.
  route({
    method: 'PUT',
    path: '/projects/:id/repository/branches/:branch/protect',
    auth: 'by_ability',
    load: 'project',
    ability: 'download_code',
    params: { developers_can_push: p.boolean(), developers_can_merge: p.boolean() },
    summary: 'Protect an existing branch (legacy)',
    response: { schema: 'Branch' },
    handler: async ({ deps, project, path, params: v, authorize }) => {
      authorize('admin_project');
      const { name, heads } = await findBranch(deps, project, path.branch);
      await legacyProtect(deps.db, project.id, name, {
        developersCanPush: v.developers_can_push ?? undefined,
        developersCanMerge: v.developers_can_merge ?? undefined,
      });
      return (await present(deps, project, heads, [name]))[0];
    },
  }),

  route({
    method: 'PUT',
    path: '/projects/:id/repository/branches/:branch/unprotect',
    auth: 'by_ability',
    load: 'project',
    ability: 'admin_project',
    summary: 'Unprotect an existing branch (legacy)',
    response: { schema: 'Branch' },
    handler: async ({ deps, project, path }) => {
      const { name, heads } = await findBranch(deps, project, path.branch);
      await legacyUnprotect(deps.db, project.id, name);
      return (await present(deps, project, heads, [name]))[0];
    },
  }),
];
