// Every change to a project: create, update (rename, move the repository), delete, archive,
// star, share with a group, custom attributes. Rows change in one transaction; the bare
// repository is created, moved or removed around it, never inside it, under the project's
// repository lock and, for a move or a delete, journalled so that a crash in between is
// finished or undone later (repository/guard.ts, repository_moves.ts).
import crypto from 'node:crypto';
import { importUrlFormatError } from '../security/import_url_guard.js';
import { scheduleUrlImport } from '../import_export/project_url_import.js';
import type { Deps } from '../../deps.js';
import { deleteProjectMergeRequests } from '../merge_requests/merge_requests.js';
import { deleteProjectAwards } from '../issuables/award_emoji.js';
import { removeDeployKeysOfProjects } from '../keys/deploy_keys.js';
import { isUniqueViolation, isSqlite, type Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { NamespaceRow, ProjectRow, ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { Conflict, Invalid, LimitReached, NotFound, Rejected } from '../../store/domain_errors.js';
import { MASTER, visibilityLevel, visibilityName, type Visibility } from '../../store/levels.js';
import { canCreateProjectIn } from '../../policy/groups.js';
import { generateToken } from '../users/tokens.js';
import { insertMember } from '../members/members.js';
import { NAME_MESSAGE, PATH_MESSAGE, pathFromName, validName, validPath } from './project_names.js';
import { findProjectByIdOrPath, fullPathOf } from '../../finders/projects.js';
import { RepositoryExistsError } from '../../git/repos.js';
import { withProjectLock } from '../repository/guard.js';
import { projectLockKey, settleJournal } from '../repository/recovery.js';
import { moveRepositories, REPOSITORY_EXISTS } from '../repository/moves.js';
import { settingsOf } from '../settings/application_settings.js';
import { deniedVisibility } from '../settings/visibility_rules.js';
import { announce } from '../notify.js';

/** Settings a create or update may carry (API names, `jobs_enabled` etc.). */
export interface ProjectSettings {
  description?: string;
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  jobs_enabled?: boolean;
  wiki_enabled?: boolean;
  snippets_enabled?: boolean;
  resolve_outdated_diff_discussions?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  public_jobs?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
  only_allow_merge_if_pipeline_succeeds?: boolean;
  only_allow_merge_if_all_discussions_are_resolved?: boolean;
  printing_merge_request_link_enabled?: boolean;
  merge_method?: 'merge' | 'rebase_merge' | 'ff';
  ci_config_path?: string;
  tag_list?: string[];
  visibility?: Visibility;
}

export interface NewProject extends ProjectSettings {
  name?: string;
  path?: string;
  namespace_id?: number;
  import_url?: string;
  default_branch?: string;
}

export interface ProjectUpdate extends ProjectSettings {
  name?: string;
  path?: string;
  default_branch?: string;
}

/** API settings → column values (only those given). */
function settingColumns(s: ProjectSettings): Partial<ProjectRow> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (value === undefined) continue;
    if (key === 'visibility') out.visibility_level = visibilityLevel(value as Visibility);
    else if (key === 'tag_list') out.tag_list = JSON.stringify([...new Set(value as string[])]);
    else out[key] = value;
  }
  return out as Partial<ProjectRow>;
}

/** Name/path format errors (and ci_config_path's length), keyed as GitLab's model validations are. */
function formatErrors(name: string | undefined, path: string | undefined, ciConfigPath?: string | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (name !== undefined) {
    if (name.trim() === '') errors.name = ["can't be blank"];
    else if (name.length > 255) errors.name = ['is too long (maximum is 255 characters)'];
    else if (!validName(name)) errors.name = [NAME_MESSAGE];
  }
  if (path !== undefined) {
    if (path.trim() === '') errors.path = ["can't be blank"];
    else if (path.length > 255) errors.path = ['is too long (maximum is 255 characters)'];
    else if (!validPath(path)) errors.path = [PATH_MESSAGE];
  }
  if (ciConfigPath && ciConfigPath.length > 255) errors.ci_config_path = ['is too long (maximum is 255 characters)'];
  return errors;
}

async function takenErrors(tx: Conn, namespaceId: number, name: string | undefined, path: string | undefined, exceptId?: number) {
  const errors: Record<string, string[]> = {};
  const clash = (column: 'name' | 'path', value: string) =>
    tx('projects')
      .where({ namespace_id: namespaceId })
      .whereRaw(`lower(${column}) = ?`, [value.toLowerCase()])
      .modify((q) => (exceptId ? q.whereNot({ id: exceptId }) : q))
      .first('id');
  if (name !== undefined && (await clash('name', name))) errors.name = ['has already been taken'];
  if (path !== undefined && (await clash('path', path))) errors.path = ['has already been taken'];
  return errors;
}

/** A project may not be more visible than the group it lives in. */
function visibilityErrors(level: number, namespace: NamespaceRow): Record<string, string[]> {
  if (namespace.kind !== 'group' || level <= namespace.visibility_level) return {};
  return {
    visibility_level: [`${visibilityName(level)} is not allowed in a ${visibilityName(namespace.visibility_level)} group.`],
  };
}

function limitReached(user: UserRow): LimitReached {
  const message =
    user.projects_limit === 0
      ? 'Personal project creation is not allowed. Please contact your administrator with questions'
      : `Your project limit is ${user.projects_limit} projects! Please contact your administrator to increase it`;
  return new LimitReached(message);
}

/**
 * Creates a project for `owner` (the current user, or the user an admin creates it for):
 * the row, its statistics row, the owner's master membership for a personal project, then
 * the bare repository (empty, or what `populate` makes in the folder it is given: a fork's
 * clone), renamed into place under the project's lock. A failure to create the repository
 * removes the row again.
 */
export async function createProject(deps: Deps, owner: UserRow, attrs: NewProject, populate?: (dir: string) => Promise<void>): Promise<ProjectWithNamespace> {
  // The instance's default visibility for new projects; a restricted level is refused first.
  const settings = await settingsOf(deps);
  const level = attrs.visibility !== undefined ? visibilityLevel(attrs.visibility) : settings.default_project_visibility;
  const denied = deniedVisibility(settings, owner, level);
  if (denied) throw new Invalid(denied);

  const path = attrs.path ?? (attrs.name !== undefined ? pathFromName(attrs.name) : undefined);
  const name = attrs.name ?? attrs.path;
  const errors = formatErrors(name, path, attrs.ci_config_path);
  const importUrlError = attrs.import_url !== undefined ? importUrlFormatError(attrs.import_url) : null;
  if (importUrlError) errors.import_url = [importUrlError];

  let namespace: NamespaceRow | undefined;
  if (attrs.namespace_id !== undefined) {
    namespace = await deps.db('namespaces').where({ id: attrs.namespace_id }).first();
    if (!namespace || !(await canCreateProjectIn(deps.db, owner, namespace))) throw new Invalid({ namespace: ['is not valid'] });
  } else {
    namespace = await deps.db('namespaces').where({ kind: 'user', owner_id: owner.id }).first();
    if (!namespace) throw new Invalid({ namespace: ["can't be blank"] });
  }
  Object.assign(errors, visibilityErrors(level, namespace));
  if (Object.keys(errors).length) throw new Invalid(errors);
  const ns = namespace;

  const stamp = now();
  let id: number;
  try {
    id = await deps.db.transaction(async (tx) => {
      if (ns.kind === 'user') {
        const row = await tx('projects').where({ namespace_id: ns.id }).count({ n: '*' }).first();
        if (Number(row?.n ?? 0) >= owner.projects_limit) throw limitReached(owner);
      }
      const taken = await takenErrors(tx, ns.id, name, path);
      if (Object.keys(taken).length) throw new Invalid(taken);
      const projectId = await insertReturningId(tx, 'projects', {
        ...settingColumns(attrs),
        namespace_id: ns.id,
        name,
        path,
        visibility_level: level,
        default_branch: null,
        creator_id: owner.id,
        runners_token: generateToken(),
        created_at: stamp,
        updated_at: stamp,
        last_activity_at: stamp,
      });
      await tx('project_statistics').insert({ project_id: projectId, updated_at: stamp });
      await announce(tx, { name: 'projectCreated', projectId, actor: owner, at: stamp });
      if (ns.kind === 'user') {
        await insertMember(tx, { sourceType: 'project', sourceId: projectId, userId: ns.owner_id!, accessLevel: MASTER, createdById: owner.id });
      }
      return projectId;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid({ path: ['has already been taken'] });
    throw err;
  }

  try {
    await withProjectLock(deps, id, async () => {
      const row = await findProjectByIdOrPath(deps.db, String(id));
      if (!row) throw new NotFound('Project'); // deleted meanwhile: no folder for nobody
      await deps.repos.create(fullPathOf(row), attrs.default_branch || 'master', populate);
    });
  } catch (err) {
    const row = await findProjectByIdOrPath(deps.db, String(id));
    if (row) await deleteProjectRows(deps, row, null);
    if (err instanceof RepositoryExistsError) throw new Invalid({ base: [REPOSITORY_EXISTS] });
    throw err;
  }
  if (attrs.import_url !== undefined) await deps.db.transaction((tx) => scheduleUrlImport(tx, id, attrs.import_url as string));
  const created = await findProjectByIdOrPath(deps.db, String(id));
  if (!created) throw new NotFound('Project');
  return created;
}

/**
 * Applies an update; renaming the path moves the repository. Permissions are checked by the
 * caller. Runs under the project's repository lock from the row as it is then, so concurrent
 * renames take turns, each moving the folder from where the previous one left it.
 */
export async function updateProject(deps: Deps, project: ProjectWithNamespace, attrs: ProjectUpdate, actor?: UserRow): Promise<ProjectWithNamespace> {
  // A change to a restricted level is refused to non-admins (UpdateVisibilityLevel), alone.
  if (attrs.visibility !== undefined && visibilityLevel(attrs.visibility) !== project.visibility_level && actor) {
    const denied = deniedVisibility(await settingsOf(deps), actor, visibilityLevel(attrs.visibility));
    if (denied) throw new Invalid(denied);
  }
  const errors = formatErrors(attrs.name, attrs.path, attrs.ci_config_path);
  if (attrs.visibility !== undefined) Object.assign(errors, visibilityErrors(visibilityLevel(attrs.visibility), project.namespace));
  if (Object.keys(errors).length) throw new Invalid(errors);

  await withProjectLock(deps, project.id, async () => {
    const current = await findProjectByIdOrPath(deps.db, String(project.id));
    if (!current) throw new NotFound('Project');
    const oldFullPath = fullPathOf(current);
    if (attrs.default_branch !== undefined && attrs.default_branch !== current.default_branch) {
      if (!(await deps.repos.branchExists(oldFullPath, attrs.default_branch))) {
        throw new Rejected('Could not set the default branch');
      }
      await deps.repos.setHead(oldFullPath, attrs.default_branch);
    }

    const { name, path, default_branch: defaultBranch, ...settings } = attrs;
    const moving = path !== undefined && path !== current.path;
    const changes: Partial<ProjectRow> = { ...settingColumns(settings), updated_at: now() };
    if (name !== undefined) changes.name = name;
    if (path !== undefined) changes.path = path;
    if (defaultBranch !== undefined) changes.default_branch = defaultBranch;

    if (moving) {
      const taken = await takenErrors(deps.db, current.namespace_id, undefined, path, current.id);
      if (Object.keys(taken).length) throw new Invalid(taken);
    }
    const moves = moving ? [{ projectId: current.id, from: oldFullPath, to: `${current.namespace.full_path}/${path}` }] : [];
    try {
      await moveRepositories(deps, moves, () =>
        deps.db.transaction(async (tx) => {
          const taken = await takenErrors(tx, current.namespace_id, name, path, current.id);
          if (Object.keys(taken).length) throw new Invalid(taken);
          await tx('projects').where({ id: current.id }).update(changes);
          if (moving) await announce(tx, { name: 'projectRenamed', projectId: current.id, oldPathWithNamespace: oldFullPath });
        }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid({ path: ['has already been taken'] });
      throw err;
    }
  });
  const updated = await findProjectByIdOrPath(deps.db, String(project.id));
  if (!updated) throw new NotFound('Project');
  return updated;
}

/**
 * Deletes the project with everything of it. `actor` (when a user asked) gets a "destroyed"
 * event, kept with no project and the project's full name, visible to them and admins.
 * Under the project's repository lock, the repository is moved into the trash (journalled),
 * then the rows go, then the trashed folder; if the rows cannot be deleted the folder comes
 * back. A project already deleted (a concurrent delete) is left as it is.
 */
export async function deleteProject(deps: Deps, project: ProjectWithNamespace, actor: UserRow | null): Promise<void> {
  await withProjectLock(deps, project.id, async () => {
    const current = await findProjectByIdOrPath(deps.db, String(project.id));
    if (!current) return;
    const key = projectLockKey(current.id);
    const trash = `${key}-${crypto.randomBytes(8).toString('hex')}`;
    try {
      await deps.repos.journal.write(key, { op: 'delete', from: fullPathOf(current), trash });
      await deps.repos.trash(fullPathOf(current), trash);
      await deleteProjectRows(deps, current, actor);
    } finally {
      await settleJournal(deps, current.id); // rows gone: the trash goes; rows kept: the folder comes back
    }
  });
}

async function deleteProjectRows(deps: Deps, project: ProjectWithNamespace, actor: UserRow | null): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // PostgreSQL: the project's row, then its statistics row, before any row whose trigger
    // moves the `projects` cache epoch. A commit's statistics refresh, running meanwhile,
    // takes the statistics row, then that epoch: in any other order the two deadlock (the
    // delete's cascade waiting for the refresh's row, the refresh for the delete's epoch).
    if (!isSqlite(tx)) await tx('projects').where({ id: project.id }).forUpdate().first('id');
    await tx('project_statistics').where({ project_id: project.id }).delete();
    await tx('members').where({ source_type: 'project', source_id: project.id }).delete();
    await tx('custom_attributes').where({ subject_type: 'project', subject_id: project.id }).delete();
    // Polymorphic rows have no foreign key to cascade on; the rest goes with the project row.
    await deleteProjectMergeRequests(tx, project.id);
    await deleteProjectAwards(tx, project.id);
    await removeDeployKeysOfProjects(tx, () => [project.id]);
    await announce(tx, { name: 'projectDestroyed', project, fullPath: fullPathOf(project), actor });
    await tx('projects').where({ id: project.id }).delete();
  });
}

export async function setArchived(deps: Deps, project: ProjectWithNamespace, archived: boolean): Promise<ProjectWithNamespace> {
  await deps.db('projects').where({ id: project.id }).update({ archived, updated_at: now() });
  return { ...project, archived };
}

/** Stars or unstars; false when the project already was in that state (the API answers 304). */
export async function setStarred(deps: Deps, user: UserRow, project: ProjectWithNamespace, starred: boolean): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const existing = await tx('users_star_projects').where({ user_id: user.id, project_id: project.id }).first();
    if (!!existing === starred) return false;
    if (starred) await tx('users_star_projects').insert({ user_id: user.id, project_id: project.id, created_at: now() });
    else await tx('users_star_projects').where({ user_id: user.id, project_id: project.id }).delete();
    await tx('projects')
      .where({ id: project.id })
      .update({ star_count: tx('users_star_projects').count('*').where({ project_id: project.id }) });
    return true;
  });
}

export interface ShareLink {
  id: number;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}

/** Shares a project with a group; 409 when already shared or when it is the project's own group. */
export async function shareWithGroup(deps: Deps, project: ProjectWithNamespace, group: NamespaceRow, groupAccess: number, expiresAt: string | null): Promise<ShareLink> {
  return deps.db.transaction(async (tx) => {
    const ownAncestor = await tx('namespace_ancestors').where({ namespace_id: project.namespace_id, ancestor_id: group.id }).first();
    if (ownAncestor) throw new Conflict('Project cannot be shared with the group it is in or one of its ancestors.');
    const existing = await tx('project_group_links').where({ project_id: project.id, group_id: group.id }).first();
    if (existing) throw new Conflict('Group already shared with this group');
    const stamp = now();
    await tx('project_group_links').insert({
      project_id: project.id,
      group_id: group.id,
      group_access: groupAccess,
      expires_at: expiresAt,
      created_at: stamp,
      updated_at: stamp,
    });
    const link: ShareLink = await tx('project_group_links')
      .where({ project_id: project.id, group_id: group.id })
      .first('id', 'project_id', 'group_id', 'group_access', 'expires_at');
    return link;
  });
}

/** Stops sharing the project with the group; false when it was not shared with it. */
export async function unshareWithGroup(db: Conn, project: ProjectRow, groupId: number): Promise<boolean> {
  return (await db('project_group_links').where({ project_id: project.id, group_id: groupId }).delete()) > 0;
}
