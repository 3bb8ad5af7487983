// Groups (GitLab 10.8 lib/api/groups.rb): list, subgroups, single (GroupDetail), create,
// update, delete; their custom attributes come from custom_attributes.ts. Order of checks:
// sign-in for writes, then the group (404 Group Not Found when invisible), then the permission
// (403: admin_group), then the parameters — so nothing is said about a hidden group's request.
// Creating checks its parameters first, then the parent (404, then create_subgroup) or, without
// one, the global create_group. Transferring a project into a group (POST
// /groups/:id/projects/:project_id) is for admins (401, 403), then the group and the project
// (404 each), then services/projects/transfer.ts; it answers the group's GroupDetail, 201.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { forbidden, notFound } from '../http/errors.js';
import { given, p, type Parsed } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import type Koa from 'koa';
import { VISIBILITIES, type Visibility } from '../policy/levels.js';
import { isAdmin } from '../policy/users.js';
import { can, GLOBAL } from '../policy/can.js';
import { groupDetailProjects, groupsQuery, groupStatistics } from '../finders/groups.js';
import { groupDetailEntity, groupEntities } from '../entities/group.js';
import { presentProjects } from './present_projects.js';
import { createGroup, deleteGroup, updateGroup } from '../services/groups/groups.js';
import { transferProject } from '../services/projects/transfer.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { groupSubjectOf } from './core/loaders.js';
import { customAttributeRoutes } from './custom_attributes.js';
import { withCustomAttributes } from './group_custom_attributes.js';
import { whereGroupCustomAttributes } from '../finders/custom_attributes.js';
import { attachAvatar, avatarOf, avatarSchema } from './avatar_params.js';

const GROUP = { schema: 'Group' } as const;
const DETAIL = { schema: 'GroupDetail' } as const;

const listSchema = {
  statistics: p.boolean().default(false),
  skip_groups: p.array(p.integer()),
  all_available: p.boolean(),
  search: p.anyString(),
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

/** GET /groups and GET /groups/:id/subgroups (`parent`): the groups the user may list. */
async function listGroups(ctx: Koa.Context, deps: Deps, user: UserRow | null, v: Parsed<typeof listSchema>, parent?: NamespaceRow) {
  const admin = isAdmin(user);
  const customAttributes = can(user, GLOBAL, 'read_custom_attribute');
  const query = groupsQuery(deps.db, user, {
    allAvailable: v.all_available ?? admin,
    owned: v.owned,
    parent,
    search: v.search && v.search.trim() !== '' ? v.search : undefined,
    skipGroups: v.skip_groups,
    orderBy: v.order_by as 'name' | 'path',
    sort: v.sort as 'asc' | 'desc',
  });
  if (customAttributes) whereGroupCustomAttributes(deps.db, query, v.custom_attributes ?? {});
  const groups = await paginate<NamespaceRow>(ctx, deps.db, query);
  // 10.8 shows statistics to admins only (`current_user.admin?`).
  const stats =
    v.statistics && admin
      ? await groupStatistics(
          deps.db,
          groups.map((g) => g.id),
        )
      : undefined;
  const rendered = groupEntities(deps.urls, groups, stats);
  return customAttributes && v.with_custom_attributes ? withCustomAttributes(deps.db, groups, rendered) : rendered;
}

async function groupDetail(deps: Deps, user: UserRow | null, group: NamespaceRow, customAttributes = false) {
  const { own, shared } = await groupDetailProjects(deps.db, user, group);
  const [projects, sharedProjects] = await Promise.all([presentProjects(deps, user, own, { view: 'project' }), presentProjects(deps, user, shared, { view: 'project' })]);
  const detail = groupDetailEntity(deps.urls, group, projects, sharedProjects);
  if (!customAttributes) return detail;
  const [withAttributes] = await withCustomAttributes(deps.db, [group], [detail]);
  return withAttributes;
}

function settings(v: { description?: string; visibility?: string; lfs_enabled?: boolean; request_access_enabled?: boolean }) {
  return given({
    description: v.description,
    visibility: v.visibility as Visibility | undefined,
    lfs_enabled: v.lfs_enabled,
    request_access_enabled: v.request_access_enabled,
  });
}

export const groupRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/groups',
    auth: 'anonymous',
    params: listSchema,
    summary: 'List groups (all_available, owned, search, statistics for admins)',
    response: { ...GROUP, list: true },
    handler: ({ ctx, deps, user, params }) => listGroups(ctx, deps, user, params),
  }),

  route({
    method: 'POST',
    path: '/groups',
    auth: 'user',
    params: { name: p.string().required(), path: p.string().required(), parent_id: p.integer(), ...settingsSchema, ...avatarSchema },
    summary: 'Create a group (a subgroup with parent_id)',
    response: DETAIL,
    handler: async ({ deps, user, params: v }) => {
      let parent: NamespaceRow | null = null;
      if (v.parent_id !== undefined && v.parent_id !== null) {
        const subject = await groupSubjectOf(deps, user, String(v.parent_id));
        if (!can(user, subject, 'create_subgroup')) throw forbidden();
        parent = subject.group;
      } else if (!can(user, GLOBAL, 'create_group')) {
        throw forbidden();
      }
      const avatar = await avatarOf(v);
      const group = await createGroup(deps, user, { name: v.name, path: v.path, parent, ...settings(v) });
      return groupDetail(deps, user, await attachAvatar(deps, 'group', group, avatar));
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id',
    auth: 'anonymous',
    load: 'group',
    params: { with_custom_attributes: p.boolean().default(false) },
    summary: 'Get a group with its projects (GroupDetail)',
    response: DETAIL,
    handler: ({ deps, user, group, params: v }) => groupDetail(deps, user, group, v.with_custom_attributes && can(user, GLOBAL, 'read_custom_attribute')),
  }),

  route({
    method: 'PUT',
    path: '/groups/:id',
    auth: 'user',
    load: 'group',
    ability: 'admin_group',
    params: { name: p.string(), path: p.string(), ...settingsSchema, ...avatarSchema },
    summary: 'Update a group',
    response: DETAIL,
    handler: async ({ deps, user, group, params: v }) => {
      const avatar = await avatarOf(v);
      const updated = await updateGroup(deps, group, { ...given({ name: v.name, path: v.path }), ...settings(v) }, user);
      return groupDetail(deps, user, await attachAvatar(deps, 'group', updated, avatar));
    },
  }),

  route({
    method: 'DELETE',
    path: '/groups/:id',
    auth: 'user',
    load: 'group',
    ability: 'admin_group',
    summary: 'Delete a group with its subgroups and projects',
    handler: async ({ ctx, deps, user, group }) => {
      checkUnmodifiedSince(ctx, group.updated_at);
      await deleteGroup(deps, group, user);
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/subgroups',
    auth: 'anonymous',
    load: 'group',
    params: listSchema,
    summary: "List a group's subgroups",
    response: { ...GROUP, list: true },
    handler: ({ ctx, deps, user, group, params }) => listGroups(ctx, deps, user, params, group),
  }),

  route({
    method: 'POST',
    path: '/groups/:id/projects/:project_id',
    auth: 'admin',
    load: 'group',
    summary: 'Transfer a project into the group (admins)',
    response: DETAIL,
    handler: async ({ deps, user, group, path }) => {
      const project = await findProjectByIdOrPath(deps.db, path.project_id);
      if (!project) throw notFound('Project');
      await transferProject(deps, project, group);
      return groupDetail(deps, user, group);
    },
  }),

  ...customAttributeRoutes('groups'),
];
