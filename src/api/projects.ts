// Projects (GitLab 10.8 lib/api/projects.rb): single, create (for yourself or, as an admin,
// for someone else), update, delete, archive, star, share, users. Lists are in
// project_lists.ts, forks in forks.ts. Writes need a signed-in user (Grape's
// `authenticate_non_get!`); the ability each needs on the project is declared on its route.
import type { UserRow } from '../store/rows.js';
import { HANDLED, route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import { blankIfNull, given, p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { isAdmin } from '../policy/users.js';
import { PROJECT_ACCESS_LEVELS } from '../policy/levels.js';
import { groupFacts } from '../policy/groups.js';
import { can } from '../policy/can.js';
import { findUserById, projectUsersQuery } from '../finders/users.js';
import { findGroupByIdOrPath } from '../finders/groups.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { presentProject } from './present_projects.js';
import { cachedPage } from './core/page_cache.js';
import { PROJECT_LIST_TOPICS } from '../store/count_cache.js';
import { userBasic } from '../entities/user.js';
import { createProject, deleteProject, setArchived, setStarred, shareWithGroup, unshareWithGroup, updateProject } from '../services/projects/projects.js';
import { settingsSchema, toSettings, UPDATE_ATTRIBUTES } from './project_params.js';
import { storableId } from '../store/stored_values.js';
import { attachAvatar, avatarOf, avatarSchema } from './avatar_params.js';

const PROJECT = { schema: 'Project' } as const;

export const projectRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/projects',
    auth: 'user',
    // A null name or path is the model's "can't be blank" (blankIfNull).
    params: { name: p.string().nullable(), path: p.string().nullable(), namespace_id: p.integer(), import_url: p.string(), ...settingsSchema, ...avatarSchema },
    rules: { atLeastOneOf: ['name', 'path'] },
    summary: 'Create a project (in your namespace or a group you may create projects in)',
    response: PROJECT,
    handler: async ({ deps, user, params: v }) => {
      const avatar = await avatarOf(v);
      const project = await createProject(deps, user, {
        ...toSettings(v),
        ...given({ name: blankIfNull(v.name), path: blankIfNull(v.path), namespace_id: v.namespace_id, import_url: v.import_url }),
      });
      return presentProject(deps, user, await attachAvatar(deps, 'project', project, avatar), { view: 'project', canAdmin: true });
    },
  }),

  route({
    method: 'POST',
    path: '/projects/user/:user_id',
    auth: 'admin',
    params: {
      name: p.string().required(),
      path: p.string().nullable(),
      default_branch: p.string(),
      namespace_id: p.integer(),
      import_url: p.string(),
      ...settingsSchema,
      ...avatarSchema,
    },
    summary: 'Create a project for another user (admins)',
    response: PROJECT,
    handler: async ({ deps, user: admin, path, params: v }) => {
      const owner = /^\d+$/.test(path.user_id) ? await findUserById(deps.db, path.user_id) : undefined;
      if (!owner) throw notFound('User');
      const avatar = await avatarOf(v);
      const project = await createProject(deps, owner, {
        ...toSettings(v),
        ...given({ name: blankIfNull(v.name), path: blankIfNull(v.path), namespace_id: v.namespace_id, import_url: v.import_url, default_branch: v.default_branch }),
      });
      return presentProject(deps, admin, await attachAvatar(deps, 'project', project, avatar), { view: 'project', canAdmin: true });
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id',
    auth: 'anonymous',
    load: 'project',
    params: { statistics: p.boolean().default(false), with_custom_attributes: p.boolean().default(false) },
    summary: 'Get a project by id or URL-encoded path',
    response: PROJECT,
    // The same bytes for the same caller while nothing the answer shows has moved: what the
    // project lists' pages are cached on (their topics guard the very same entity).
    handler: ({ ctx, deps, user, project, loaded, can: may, params: v }) =>
      cachedPage(ctx, deps, user, PROJECT_LIST_TOPICS, () =>
        presentProject(
          deps,
          user,
          project,
          {
            view: user ? 'withAccess' : 'basic',
            statistics: v.statistics,
            customAttributes: v.with_custom_attributes && isAdmin(user),
            canAdmin: may('admin_project'),
          },
          loaded.extras,
        ),
      ),
  }),

  // Renaming and changing the visibility need the owner's abilities too, asked once the
  // parameters say they are wanted.
  route({
    method: 'PUT',
    path: '/projects/:id',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: { name: p.string().nullable(), path: p.string().nullable(), default_branch: p.string(), ...settingsSchema, ...avatarSchema },
    rules: { atLeastOneOf: UPDATE_ATTRIBUTES },
    summary: "Update a project's settings, name, path or default branch",
    response: PROJECT,
    handler: async ({ deps, user, project, authorize, params: v }) => {
      if (v.name !== undefined && v.name !== '') authorize('rename_project');
      if (v.visibility !== undefined) authorize('change_visibility_level');
      const avatar = await avatarOf(v);
      const updated = await updateProject(
        deps,
        project,
        {
          ...toSettings(v),
          ...given({ name: blankIfNull(v.name), path: blankIfNull(v.path), default_branch: v.default_branch }),
        },
        user,
      );
      return presentProject(deps, user, await attachAvatar(deps, 'project', updated, avatar), { view: 'project', canAdmin: true });
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id',
    auth: 'user',
    load: 'project',
    ability: 'remove_project',
    status: 202,
    summary: 'Delete a project with its repository (202)',
    handler: async ({ deps, user, project }) => {
      await deleteProject(deps, project, user);
      return { message: '202 Accepted' };
    },
  }),

  ...(
    [
      ['archive', true],
      ['unarchive', false],
    ] as const
  ).map(([action, archived]) =>
    route({
      method: 'POST',
      path: `/projects/:id/${action}`,
      auth: 'user',
      load: 'project',
      ability: 'archive_project',
      summary: archived ? 'Archive a project (read-only)' : 'Unarchive a project',
      response: PROJECT,
      handler: async ({ deps, user, project }) => presentProject(deps, user, await setArchived(deps, project, archived), { view: 'project' }),
    }),
  ),

  // 304 without a body when the project already was (or was not) starred.
  ...(
    [
      ['star', true],
      ['unstar', false],
    ] as const
  ).map(([action, starred]) =>
    route({
      method: 'POST',
      path: `/projects/:id/${action}`,
      auth: 'user',
      load: 'project',
      summary: starred ? 'Star a project (304 when already starred)' : 'Unstar a project (304 when not starred)',
      response: PROJECT,
      handler: async ({ ctx, deps, user, project }) => {
        if (!(await setStarred(deps, user, project, starred))) {
          ctx.status = 304;
          return HANDLED;
        }
        const reloaded = (await findProjectByIdOrPath(deps.db, String(project.id))) ?? project; // the new star count
        return presentProject(deps, user, reloaded, { view: 'project' });
      },
    }),
  ),

  route({
    method: 'POST',
    path: '/projects/:id/share',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: {
      group_id: p.integer().required(),
      group_access: p.integer().required().values(PROJECT_ACCESS_LEVELS),
      expires_at: p.date(),
    },
    summary: 'Share a project with a group at an access level',
    response: { schema: 'ProjectGroupLink' },
    handler: async ({ deps, user, project, params: v }) => {
      const group = await findGroupByIdOrPath(deps.db, String(v.group_id));
      if (!group || !can(user, { kind: 'group', ...(await groupFacts(deps.db, user, group)) }, 'read_group')) throw notFound('Group');
      return shareWithGroup(deps, project, group, v.group_access, v.expires_at ?? null);
    },
  }),

  // 10.8 declared group_id an Integer (a non-numeric one would be 400); Wharf answers 404 Group
  // Link, as its tests expect.
  route({
    method: 'DELETE',
    path: '/projects/:id/share/:group_id',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    summary: 'Stop sharing a project with a group',
    handler: async ({ deps, project, path }) => {
      const groupId = storableId(path.group_id); // beyond the id range: no such link, on either engine
      if (groupId === null || !(await unshareWithGroup(deps.db, project, groupId))) throw notFound('Group Link');
    },
  }),

  // The members of the project and of its group's ancestry (not those of shared groups).
  route({
    method: 'GET',
    path: '/projects/:id/users',
    auth: 'anonymous',
    load: 'project',
    params: { search: p.anyString() },
    summary: "List a project's members as users (search by name, username or email)",
    response: { schema: 'UserBasic', list: true },
    handler: async ({ ctx, deps, project, params: v }) => {
      const query = projectUsersQuery(deps.db, project, v.search);
      const users = await paginate<UserRow>(ctx, deps.db, query);
      return users.map((u) => userBasic(u, deps.urls));
    },
  }),
];
