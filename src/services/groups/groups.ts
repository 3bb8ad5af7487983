// Every change to a group: create (its creator becomes its owner), update (a new path or name
// renames every group below it and moves their repositories, journalled and under their
// repository locks), delete (with its subgroups and projects). Permissions are checked by the caller.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { isUniqueViolation, type Conn } from '../../store/db.js';
import type { NamespaceRow, ProjectRow, UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { Conflict, Invalid, Rejected } from '../../store/domain_errors.js';
import { OWNER, visibilityLevel, visibilityName, type Visibility } from '../../store/levels.js';
import { createNamespace } from './namespaces.js';
import { insertMember } from '../members/members.js';
import { deleteProject } from '../projects/projects.js';
import { groupErrors, rubyInspect, type Errors } from './group_rules.js';
import { subtreeIds } from '../../finders/groups.js';
import { moveRepositoriesOf, type RepositoryMove } from '../repository/moves.js';
import { settingsOf } from '../settings/application_settings.js';
import { deniedVisibility } from '../settings/visibility_rules.js';
import { announce } from '../notify.js';

interface GroupSettings {
  description?: string;
  visibility?: Visibility;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

export interface NewGroup extends GroupSettings {
  name: string;
  path: string;
  parent?: NamespaceRow | null;
}

export interface GroupUpdate extends GroupSettings {
  name?: string;
  path?: string;
}

/** Does a namespace or a project (other than `exceptNamespaceId`) already own this full path? */
async function fullPathTaken(db: Conn, fullPath: string, parentId: number | null, exceptNamespaceId?: number): Promise<boolean> {
  const lower = fullPath.toLowerCase();
  const ns = await db('namespaces')
    .whereRaw('lower(full_path) = ?', [lower])
    .modify((q) => (exceptNamespaceId ? q.whereNot({ id: exceptNamespaceId }) : q))
    .first('id');
  if (ns) return true;
  if (parentId === null) return false; // a project path always has a namespace before it
  const project = await db('projects')
    .where({ namespace_id: parentId })
    .whereRaw('lower(path) = ?', [lower.slice(lower.lastIndexOf('/') + 1)])
    .first('id');
  return !!project;
}

async function ancestorCount(db: Conn, parent: NamespaceRow | null | undefined): Promise<number> {
  if (!parent) return 0;
  const row = await db('namespace_ancestors').where({ namespace_id: parent.id }).count({ n: '*' }).first();
  return Number((row as { n: number | string } | undefined)?.n ?? 0);
}

/** GitLab's visibility rules: not above the parent, not below its projects or subgroups. */
async function visibilityErrors(db: Conn, level: number, parent: NamespaceRow | null | undefined, self?: NamespaceRow): Promise<string[]> {
  const name = visibilityName(level);
  const messages: string[] = [];
  if (self) {
    const higherProject = await db('projects').where({ namespace_id: self.id }).where('visibility_level', '>', level).first('id');
    if (higherProject) messages.push(`${name} is not allowed since this group contains projects with higher visibility.`);
    const higherChild = await db('namespaces').where({ parent_id: self.id }).where('visibility_level', '>', level).first('id');
    if (higherChild) messages.push(`${name} is not allowed since there are sub-groups with higher visibility.`);
  }
  if (parent && level > parent.visibility_level) {
    messages.push(`${name} is not allowed since the parent group has a ${visibilityName(parent.visibility_level)} visibility.`);
  }
  return messages;
}

function hasErrors(errors: Errors): boolean {
  return Object.keys(errors).length > 0;
}

/** Creation failures answer GitLab's 400 `Failed to save group {...}` (a Ruby hash in a string). */
function saveFailed(errors: Errors) {
  return new Rejected(`Failed to save group ${rubyInspect(errors)}`);
}

export async function createGroup(deps: Deps, creator: UserRow, g: NewGroup): Promise<NamespaceRow> {
  const parent = g.parent ?? null;
  const fullPath = parent ? `${parent.full_path}/${g.path}` : g.path;
  // The instance's default visibility for new groups; a restricted level is refused first.
  const settings = await settingsOf(deps);
  const level = g.visibility !== undefined ? visibilityLevel(g.visibility) : settings.default_group_visibility;
  const denied = deniedVisibility(settings, creator, level);
  if (denied) throw saveFailed(denied);
  try {
    return await deps.db.transaction(async (tx) => {
      const errors = groupErrors({
        name: g.name,
        path: g.path,
        description: g.description ?? '',
        fullPath,
        ancestorCount: await ancestorCount(tx, parent),
        visibilityErrors: await visibilityErrors(tx, level, parent),
        fullPathTaken: g.path.trim() !== '' && (await fullPathTaken(tx, fullPath, parent?.id ?? null)),
      });
      if (hasErrors(errors)) throw saveFailed(errors);
      const group = await createNamespace(tx, {
        kind: 'group',
        name: g.name,
        path: g.path,
        parent,
        description: g.description ?? '',
        visibilityLevel: level,
        requestAccessEnabled: g.request_access_enabled ?? false,
        lfsEnabled: g.lfs_enabled ?? true,
      });
      await insertMember(tx, { sourceType: 'group', sourceId: group.id, userId: creator.id, accessLevel: OWNER, createdById: creator.id });
      await announce(tx, { name: 'groupCreated', group });
      return group;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw saveFailed({ path: ['has already been taken'] });
    throw err;
  }
}

/** The repositories below a group, with where they go when its full path changes. */
async function repositoryMoves(db: Conn, group: NamespaceRow, newFullPath: string): Promise<RepositoryMove[]> {
  const rows: { id: number; ns_path: string; path: string }[] = await db('projects as p')
    .join('namespaces as n', 'n.id', 'p.namespace_id')
    .whereIn('p.namespace_id', subtreeIds(db, group.id))
    .select('p.id', 'n.full_path as ns_path', 'p.path');
  return rows.map((r) => ({
    projectId: r.id,
    from: `${r.ns_path}/${r.path}`,
    to: `${newFullPath}${r.ns_path.slice(group.full_path.length)}/${r.path}`,
  }));
}

/**
 * Applies an update. A new path or name is carried to every group below (their full paths and
 * full names start with this one's), and a new path moves the repositories below first; if
 * the rows then cannot change, they are moved back.
 */
export async function updateGroup(deps: Deps, group: NamespaceRow, u: GroupUpdate, actor?: UserRow): Promise<NamespaceRow> {
  // A change to a restricted level is refused to non-admins (UpdateVisibilityLevel), alone.
  if (u.visibility !== undefined && visibilityLevel(u.visibility) !== group.visibility_level && actor) {
    const denied = deniedVisibility(await settingsOf(deps), actor, visibilityLevel(u.visibility));
    if (denied) throw new Invalid(denied);
  }
  const parent: NamespaceRow | null = group.parent_id ? await deps.db('namespaces').where({ id: group.parent_id }).first() : null;
  const name = u.name ?? group.name;
  const pathValue = u.path ?? group.path;
  const fullPath = parent ? `${parent.full_path}/${pathValue}` : pathValue;
  const fullName = parent ? `${parent.full_name} / ${name}` : name;
  const level = u.visibility !== undefined ? visibilityLevel(u.visibility) : group.visibility_level;

  const validate = async (db: Conn) =>
    groupErrors({
      name,
      path: pathValue,
      description: u.description ?? group.description,
      fullPath,
      ancestorCount: await ancestorCount(db, parent),
      visibilityErrors: await visibilityErrors(db, level, parent, group),
      fullPathTaken: pathValue.trim() !== '' && (await fullPathTaken(db, fullPath, parent?.id ?? null, group.id)),
    });
  const before = await validate(deps.db);
  if (hasErrors(before)) throw new Invalid(before);

  const moving = fullPath !== group.full_path;
  try {
    const write = (writeRows: () => Promise<void>) => (moving ? moveRepositoriesOf(deps, () => repositoryMoves(deps.db, group, fullPath), writeRows) : writeRows());
    await write(() =>
      deps.db.transaction(async (tx) => {
        // The paths below are rewritten from the old prefix: it must still be the current one.
        const current: NamespaceRow | undefined = await tx('namespaces').where({ id: group.id }).first();
        if (!current || current.full_path !== group.full_path || current.full_name !== group.full_name) {
          throw new Conflict('The group was changed by another request; please try again');
        }
        const errors = await validate(tx);
        if (hasErrors(errors)) throw new Invalid(errors);
        const changes: Partial<NamespaceRow> = { name, path: pathValue, full_path: fullPath, full_name: fullName, visibility_level: level, updated_at: now() };
        if (u.description !== undefined) changes.description = u.description;
        if (u.lfs_enabled !== undefined) changes.lfs_enabled = u.lfs_enabled;
        if (u.request_access_enabled !== undefined) changes.request_access_enabled = u.request_access_enabled;
        await tx('namespaces').where({ id: group.id }).update(changes);
        const below = tx('namespace_ancestors').select('namespace_id').where('ancestor_id', group.id).where('depth', '>', 0);
        if (fullPath !== group.full_path) {
          await tx('namespaces')
            .whereIn('id', below.clone())
            .update({ full_path: tx.raw('? || substr(full_path, ?)', [fullPath, group.full_path.length + 1]) });
        }
        if (fullName !== group.full_name) {
          await tx('namespaces')
            .whereIn('id', below.clone())
            .update({ full_name: tx.raw('? || substr(full_name, ?)', [fullName, group.full_name.length + 1]) });
        }
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid({ path: ['has already been taken'] });
    throw err;
  }
  if (moving) await pruneGroupDir(deps, group.full_path);
  return deps.db('namespaces').where({ id: group.id }).first();
}

/** Removes the empty folders left where a group's repositories were. */
async function pruneEmptyDirs(dir: string): Promise<void> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) await pruneEmptyDirs(path.join(dir, e.name));
  try {
    await fs.promises.rmdir(dir);
  } catch {
    // not empty: something else lives there
  }
}

/** Removes a group's folder under the repositories root if no repository is left in it. */
async function pruneGroupDir(deps: Deps, fullPath: string): Promise<void> {
  const dir = path.resolve(deps.repos.root, ...fullPath.split('/'));
  if (dir.startsWith(deps.repos.root + path.sep)) await pruneEmptyDirs(dir);
}

/** Rounds of "delete the projects, then the groups" before giving up on a group that keeps getting projects. */
const DELETE_ATTEMPTS = 3;

/**
 * Deletes a group with everything below it: each project (rows and repository, through the
 * projects service), then the groups, their memberships and custom attributes.
 */
export async function deleteGroup(deps: Deps, group: NamespaceRow, actor: UserRow | null): Promise<void> {
  for (let attempt = 0; attempt < DELETE_ATTEMPTS; attempt++) {
    const rows: ProjectRow[] = await deps.db('projects').whereIn('namespace_id', subtreeIds(deps.db, group.id));
    const namespaces: NamespaceRow[] = rows.length ? await deps.db('namespaces').whereIn('id', [...new Set(rows.map((r) => r.namespace_id))]) : [];
    const namespaceOf = new Map(namespaces.map((n) => [n.id, n]));
    for (const row of rows) await deleteProject(deps, { ...row, namespace: namespaceOf.get(row.namespace_id)! }, actor);
    const removed = await deps.db.transaction(async (tx) => {
      // A project created meanwhile: delete it first (next round).
      if (await tx('projects').whereIn('namespace_id', subtreeIds(tx, group.id)).first('id')) return false;
      const ids = (await subtreeIds(tx, group.id)).map((r: { namespace_id: number }) => r.namespace_id);
      await announce(tx, { name: 'groupDestroyed', group });
      await tx('members').where({ source_type: 'group' }).whereIn('source_id', ids).delete();
      await tx('custom_attributes').where({ subject_type: 'group' }).whereIn('subject_id', ids).delete();
      // Deepest first, so that no row outlives its parent even for a moment.
      const depths: { namespace_id: number; depth: number }[] = await tx('namespace_ancestors')
        .where('ancestor_id', group.id)
        .select('namespace_id', 'depth')
        .orderBy('depth', 'desc');
      for (const d of depths) await tx('namespaces').where({ id: d.namespace_id }).delete();
      return true;
    });
    if (removed) {
      await pruneGroupDir(deps, group.full_path);
      return;
    }
  }
  throw new Conflict('Group is being filled with projects while it is being deleted');
}
