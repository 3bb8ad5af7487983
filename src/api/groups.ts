// Groups: list, subgroups, single (GroupDetail), create, update, delete, custom attributes.
// Order of checks as in GitLab 10.8: sign-in for writes, then parameters, then the group
// (404 when invisible), then the permission (403).
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { currentUser, requireUser } from '../http/auth.js';
import { forbidden, notFound } from '../http/errors.js';
import { given, p, parse } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { VISIBILITIES, type Visibility } from '../policy/levels.js';
import { isAdmin } from '../policy/users.js';
import { canCreateGroup, canOnGroup, canReadGroup, canSeeGroupStatistics } from '../policy/groups.js';
import { findGroupByIdOrPath, groupsQuery } from '../finders/groups.js';
import { presentGroupDetail, presentGroups } from '../entities/group.js';
import { createGroup, deleteGroup, updateGroup } from '../services/groups.js';
import { loadGroup } from './loaders.js';
import { mountCustomAttributes } from './custom_attributes.js';

const listSchema = {
  statistics: p.boolean().default(false),
  skip_groups: p.array(p.integer()),
  all_available: p.boolean(),
  search: p.string(),
  owned: p.boolean().default(false),
  order_by: p.string().values(['name', 'path']).default('name'),
  sort: p.string().values(['asc', 'desc']).default('asc'),
  with_custom_attributes: p.boolean().default(false),
  custom_attributes: p.hash(),
};

const settingsSchema = {
  description: p.string(),
  visibility: p.string().values(VISIBILITIES),
  lfs_enabled: p.boolean(),
  request_access_enabled: p.boolean(),
  // Accepted for compatibility; Wharf has no project-sharing lock to set.
  share_with_group_lock: p.boolean(),
};

/** Custom attributes of the groups, for admins who asked (one query). */
async function customAttributesOf(deps: Deps, groups: NamespaceRow[]): Promise<Map<number, { key: string; value: string }[]>> {
  const out = new Map<number, { key: string; value: string }[]>(groups.map((g) => [g.id, []]));
  if (!groups.length) return out;
  const rows: { subject_id: number; key: string; value: string }[] = await deps.db('custom_attributes')
    .where({ subject_type: 'group' })
    .whereIn('subject_id', groups.map((g) => g.id))
    .orderBy('key');
  for (const r of rows) out.get(r.subject_id)?.push({ key: r.key, value: r.value });
  return out;
}

async function withCustomAttributes(deps: Deps, groups: NamespaceRow[], rendered: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const attributes = await customAttributesOf(deps, groups);
  return rendered.map((r, i) => {
    const { statistics, ...rest } = r;
    return { ...rest, custom_attributes: attributes.get(groups[i].id) ?? [], ...(statistics ? { statistics } : {}) };
  });
}

/** `loadParent` (subgroups) answers its 404 before the parameters are checked. */
async function listGroups(ctx: Koa.Context, deps: Deps, loadParent?: () => Promise<NamespaceRow>): Promise<void> {
  const user = currentUser(ctx);
  const parent = loadParent ? await loadParent() : undefined;
  const v = parse(ctx, listSchema);
  const admin = isAdmin(user);
  const query = groupsQuery(deps.db, user, {
    allAvailable: v.all_available ?? admin,
    owned: v.owned,
    parent,
    search: v.search && v.search.trim() !== '' ? v.search : undefined,
    skipGroups: v.skip_groups,
    orderBy: v.order_by as 'name' | 'path',
    sort: v.sort as 'asc' | 'desc',
  });
  if (admin) {
    for (const [key, value] of Object.entries(v.custom_attributes ?? {})) {
      query.whereExists(
        deps.db('custom_attributes')
          .select(deps.db.raw('1'))
          .where({ subject_type: 'group', key, value })
          .whereRaw('custom_attributes.subject_id = namespaces.id'),
      );
    }
  }
  const groups = await paginate<NamespaceRow>(ctx, deps.db, query);
  const rendered = await presentGroups(deps, groups, { statistics: v.statistics && canSeeGroupStatistics(user) });
  ctx.body = admin && v.with_custom_attributes ? await withCustomAttributes(deps, groups, rendered) : rendered;
}

async function groupDetail(deps: Deps, user: UserRow | null, group: NamespaceRow, customAttributes = false) {
  const detail = await presentGroupDetail(deps, user, group);
  if (!customAttributes) return detail;
  const [withAttributes] = await withCustomAttributes(deps, [group], [detail]);
  return withAttributes;
}

export function groupsRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/groups', (ctx) => listGroups(ctx, deps));

  router.post('/groups', async (ctx) => {
    const user = requireUser(ctx);
    const v = parse(ctx, {
      name: p.string().required(),
      path: p.string().required(),
      parent_id: p.integer(),
      ...settingsSchema,
    });
    let parent: NamespaceRow | null = null;
    if (v.parent_id !== undefined && v.parent_id !== null) {
      const found = await findGroupByIdOrPath(deps.db, String(v.parent_id));
      if (!found || !(await canReadGroup(deps.db, user, found))) throw notFound('Group');
      if (!(await canOnGroup(deps.db, user, found, 'create_subgroup'))) throw forbidden();
      parent = found;
    } else if (!canCreateGroup(user)) {
      throw forbidden();
    }
    const group = await createGroup(deps, user, {
      name: v.name,
      path: v.path,
      parent,
      ...given({
        description: v.description,
        visibility: v.visibility as Visibility | undefined,
        lfs_enabled: v.lfs_enabled,
        request_access_enabled: v.request_access_enabled,
      }),
    });
    ctx.status = 201;
    ctx.body = await groupDetail(deps, user, group);
  });

  router.get('/groups/:id', async (ctx) => {
    const user = currentUser(ctx);
    const group = await loadGroup(ctx, deps);
    const v = parse(ctx, { with_custom_attributes: p.boolean().default(false) });
    ctx.body = await groupDetail(deps, user, group, v.with_custom_attributes && isAdmin(user));
  });

  router.put('/groups/:id', async (ctx) => {
    const user = requireUser(ctx);
    const group = await loadGroup(ctx, deps);
    if (!(await canOnGroup(deps.db, user, group, 'admin_group'))) throw forbidden();
    const v = parse(ctx, { name: p.string(), path: p.string(), ...settingsSchema });
    const updated = await updateGroup(deps, group, given({
      name: v.name,
      path: v.path,
      description: v.description,
      visibility: v.visibility as Visibility | undefined,
      lfs_enabled: v.lfs_enabled,
      request_access_enabled: v.request_access_enabled,
    }));
    ctx.body = await groupDetail(deps, user, updated);
  });

  router.delete('/groups/:id', async (ctx) => {
    const user = requireUser(ctx);
    const group = await loadGroup(ctx, deps);
    if (!(await canOnGroup(deps.db, user, group, 'admin_group'))) throw forbidden();
    checkUnmodifiedSince(ctx, group.updated_at);
    await deleteGroup(deps, group, user);
    ctx.status = 204;
  });

  router.get('/groups/:id/subgroups', async (ctx) => {
    await listGroups(ctx, deps, () => loadGroup(ctx, deps));
  });

  mountCustomAttributes(router, deps, '/groups/:id', 'group', async (ctx) => (await loadGroup(ctx, deps)).id);

  return router;
}
