// Projects: lists (all, a user's, a group's), single, create (for yourself or, as an admin,
// for someone else), update, delete, archive, star, share, users.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { currentUser, requireAdmin, requireUser } from '../http/auth.js';
import { forbidden, notFound } from '../http/errors.js';
import { blankIfNull, given, p, parse, type Parsed } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { isAdmin } from '../policy/users.js';
import { PROJECT_ACCESS_LEVELS, type Visibility } from '../policy/levels.js';
import { loadGroup, loadProject } from './loaders.js';
import { findUserByIdOrUsername } from '../finders/users.js';
import { findGroupByIdOrPath } from '../finders/groups.js';
import { projectsQuery, containsPattern, type ProjectOrder } from '../finders/projects.js';
import { canReadGroup } from '../policy/groups.js';
import { presentProject, presentProjects, withNamespaces } from '../entities/project.js';
import { userBasic } from '../entities/user.js';
import {
  createProject, deleteProject, setArchived, setStarred, shareWithGroup, updateProject,
} from '../services/projects.js';
import { listSchema, settingsSchema, toSettings, UPDATE_ATTRIBUTES } from './project_params.js';
import { mountCustomAttributes } from './custom_attributes.js';
import type { ProjectRow } from '../store/rows.js';

export interface ListScope {
  personalOf?: UserRow;
  group?: NamespaceRow;
  forkedFromId?: number;
}

/** Parses the list parameters, runs one paged query and renders the page. */
export async function listProjects(ctx: Koa.Context, deps: Deps, scope: ListScope): Promise<void> {
  const user = currentUser(ctx);
  const f: Parsed<typeof listSchema> = parse(ctx, listSchema);
  const admin = isAdmin(user);
  const query = projectsQuery(deps.db, user, {
    archived: f.archived,
    visibility: f.visibility as Visibility | undefined,
    search: f.search || undefined,
    owned: f.owned,
    membership: f.membership,
    starred: f.starred,
    withIssuesEnabled: f.with_issues_enabled,
    withMergeRequestsEnabled: f.with_merge_requests_enabled,
    customAttributes: admin ? f.custom_attributes : undefined,
    personalOf: scope.personalOf,
    group: scope.group,
    forkedFromId: scope.forkedFromId,
    orderBy: f.order_by as ProjectOrder,
    sort: f.sort as 'asc' | 'desc',
  });
  const rows = await paginate<ProjectRow>(ctx, deps.db, query);
  const projects = await withNamespaces(deps.db, rows);
  ctx.body = await presentProjects(deps, user, projects, {
    view: f.simple || !user ? 'basic' : 'withAccess',
    statistics: f.statistics,
    customAttributes: admin && f.with_custom_attributes,
  });
}

export function projectsRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/projects', (ctx) => listProjects(ctx, deps, {}));

  router.get('/users/:user_id/projects', async (ctx) => {
    const user = await findUserByIdOrUsername(deps.db, ctx.params.user_id);
    if (!user) throw notFound('User');
    await listProjects(ctx, deps, { personalOf: user });
  });

  router.get('/groups/:id/projects', async (ctx) => {
    const group = await loadGroup(ctx, deps);
    await listProjects(ctx, deps, { group });
  });

  router.post('/projects', async (ctx) => {
    const user = requireUser(ctx);
    const v = parse(
      ctx,
      { name: p.string(), path: p.string(), namespace_id: p.integer(), import_url: p.string(), ...settingsSchema },
      { atLeastOneOf: ['name', 'path'] },
    );
    const project = await createProject(deps, user, {
      ...toSettings(v),
      ...given({ name: blankIfNull(v.name), path: blankIfNull(v.path), namespace_id: v.namespace_id, import_url: v.import_url }),
    });
    ctx.status = 201;
    ctx.body = await presentProject(deps, user, project, { view: 'project', canAdmin: true });
  });

  router.post('/projects/user/:user_id', async (ctx) => {
    const admin = requireAdmin(ctx);
    const v = parse(ctx, {
      name: p.string().required(),
      path: p.string(),
      default_branch: p.string(),
      namespace_id: p.integer(),
      import_url: p.string(),
      ...settingsSchema,
    });
    const owner = /^\d+$/.test(ctx.params.user_id) ? await deps.db('users').where({ id: Number(ctx.params.user_id) }).first() : undefined;
    if (!owner) throw notFound('User');
    const project = await createProject(deps, owner, {
      ...toSettings(v),
      ...given({ name: v.name, path: v.path, namespace_id: v.namespace_id, import_url: v.import_url, default_branch: v.default_branch }),
    });
    ctx.status = 201;
    ctx.body = await presentProject(deps, admin, project, { view: 'project', canAdmin: true });
  });

  router.get('/projects/:id', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    const v = parse(ctx, { statistics: p.boolean().default(false), with_custom_attributes: p.boolean().default(false) });
    ctx.body = await presentProject(deps, loaded.user, loaded.project, {
      view: loaded.user ? 'withAccess' : 'basic',
      statistics: v.statistics,
      customAttributes: v.with_custom_attributes && isAdmin(loaded.user),
      canAdmin: loaded.can('admin_project'),
    });
  });

  router.put('/projects/:id', async (ctx) => {
    requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('admin_project');
    const v = parse(
      ctx,
      { name: p.string(), path: p.string(), default_branch: p.string(), ...settingsSchema },
      { atLeastOneOf: UPDATE_ATTRIBUTES },
    );
    if (v.name !== undefined && v.name !== '') loaded.authorize('rename_project');
    if (v.visibility !== undefined) loaded.authorize('change_visibility_level');
    const project = await updateProject(deps, loaded.project, {
      ...toSettings(v),
      ...given({ name: blankIfNull(v.name), path: blankIfNull(v.path), default_branch: v.default_branch }),
    });
    ctx.body = await presentProject(deps, loaded.user, project, { view: 'project', canAdmin: true });
  });

  router.delete('/projects/:id', async (ctx) => {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('remove_project');
    await deleteProject(deps, loaded.project, user);
    ctx.status = 202;
    ctx.body = { message: '202 Accepted' };
  });

  for (const [action, archived] of [['archive', true], ['unarchive', false]] as const) {
    router.post(`/projects/:id/${action}`, async (ctx) => {
      requireUser(ctx);
      const loaded = await loadProject(ctx, deps);
      loaded.authorize('archive_project');
      const project = await setArchived(deps, loaded.project, archived);
      ctx.status = 201;
      ctx.body = await presentProject(deps, loaded.user, project, { view: 'project' });
    });
  }

  for (const [action, starred] of [['star', true], ['unstar', false]] as const) {
    router.post(`/projects/:id/${action}`, async (ctx) => {
      const user = requireUser(ctx);
      const loaded = await loadProject(ctx, deps);
      if (!(await setStarred(deps, user, loaded.project, starred))) {
        ctx.status = 304;
        return;
      }
      const reloaded = await loadProject(ctx, deps);
      ctx.status = 201;
      ctx.body = await presentProject(deps, user, reloaded.project, { view: 'project' });
    });
  }

  router.post('/projects/:id/share', async (ctx) => {
    requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('admin_project');
    const v = parse(ctx, {
      group_id: p.integer().required(),
      group_access: p.integer().required().values(PROJECT_ACCESS_LEVELS),
      expires_at: p.date(),
    });
    const group = await findGroupByIdOrPath(deps.db, String(v.group_id));
    if (!group || !(await canReadGroup(deps.db, loaded.user, group))) throw notFound('Group');
    ctx.status = 201;
    ctx.body = await shareWithGroup(deps, loaded.project, group, v.group_access, v.expires_at ?? null);
  });

  router.delete('/projects/:id/share/:group_id', async (ctx) => {
    requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    loaded.authorize('admin_project');
    const removed = /^\d+$/.test(ctx.params.group_id)
      ? await deps.db('project_group_links').where({ project_id: loaded.project.id, group_id: Number(ctx.params.group_id) }).delete()
      : 0;
    if (!removed) throw notFound('Group Link');
    ctx.status = 204;
  });

  router.get('/projects/:id/users', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    const v = parse(ctx, { search: p.string() });
    const project = loaded.project;
    const members = deps.db('members')
      .select('user_id')
      .where({ source_type: 'project', source_id: project.id })
      .whereNull('requested_at')
      .union(
        deps.db('members as m')
          .select('m.user_id')
          .join('namespace_ancestors as a', 'a.ancestor_id', 'm.source_id')
          .where({ 'm.source_type': 'group', 'a.namespace_id': project.namespace_id })
          .whereNull('m.requested_at'),
      );
    const query = deps.db('users').whereIn('id', members).orderBy('id', 'asc');
    if (v.search) {
      const pattern = containsPattern(v.search);
      query.where((w) =>
        w
          .whereRaw("lower(name) LIKE ? ESCAPE '\\'", [pattern])
          .orWhereRaw("lower(username) LIKE ? ESCAPE '\\'", [pattern])
          .orWhereRaw("lower(email) LIKE ? ESCAPE '\\'", [pattern]),
      );
    }
    const users = await paginate<UserRow>(ctx, deps.db, query);
    ctx.body = users.map((u) => userBasic(u, deps.urls));
  });

  mountCustomAttributes(router, deps, '/projects/:id', 'project', async (ctx) => {
    const loaded = await loadProject(ctx, deps);
    if (!isAdmin(loaded.user)) throw forbidden();
    return loaded.project.id;
  });

  return router;
}

