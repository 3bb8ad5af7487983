// Who may see and do what on a project. The only place project permissions are decided.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { DEVELOPER, GUEST, INTERNAL, MASTER, NO_ACCESS, OWNER, PUBLIC, REPORTER } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { refusedOnArchived } from './archived.js';

export interface ProjectAccess {
  /** Level from a project membership (or a group share), null when none. */
  projectLevel: number | null;
  /** Level from membership of the project's group or its ancestors, null when none. */
  groupLevel: number | null;
  /** The project's owner: its personal namespace's user or an owner of its group. */
  owner: boolean;
}

/**
 * Project ids the user is a member of at `minLevel` or more: directly, through its groups (or
 * their ancestors), or through a group share (capped by the share's level); the owner of a
 * personal namespace counts for all of its projects, as a Maintainer.
 */
export function authorizedProjectIds(db: Conn, userId: number, minLevel = GUEST): Knex.QueryBuilder {
  const direct = db('members').select('source_id as project_id').where({ source_type: 'project', user_id: userId }).where('access_level', '>=', minLevel).whereNull('requested_at');
  const viaGroup = db('projects as ap')
    .select('ap.id as project_id')
    .join('namespace_ancestors as ana', 'ana.namespace_id', 'ap.namespace_id')
    .join('members as am', function () {
      this.on('am.source_id', '=', 'ana.ancestor_id').andOnVal('am.source_type', '=', 'group');
    })
    .where('am.user_id', userId)
    .where('am.access_level', '>=', minLevel)
    .whereNull('am.requested_at');
  const viaShare = db('project_group_links as sl')
    .select('sl.project_id as project_id')
    .join('namespace_ancestors as sna', 'sna.namespace_id', 'sl.group_id')
    .join('members as sm', function () {
      this.on('sm.source_id', '=', 'sna.ancestor_id').andOnVal('sm.source_type', '=', 'group');
    })
    .where('sm.user_id', userId)
    .where('sm.access_level', '>=', minLevel)
    .where('sl.group_access', '>=', minLevel)
    .whereNull('sm.requested_at');
  // GitLab's project_authorizations give the owner of a personal namespace Maintainer.
  if (minLevel > MASTER) return direct.union([viaGroup, viaShare]);
  const personal = db('projects as pp').select('pp.id as project_id').join('namespaces as pn', 'pn.id', 'pp.namespace_id').where('pn.owner_id', userId);
  return direct.union([viaGroup, viaShare, personal]);
}

/**
 * Restricts a query on `projects` (under `alias`) to what the user may see:
 * public ones, internal ones for signed-in regular users, and their own.
 */
export function whereVisibleProjects(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'projects'): Knex.QueryBuilder {
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.where(`${alias}.visibility_level`, PUBLIC);
    if (user) {
      if (isSignedInRegular(user)) w.orWhere(`${alias}.visibility_level`, INTERNAL);
      w.orWhereIn(`${alias}.id`, authorizedProjectIds(db, user.id));
    }
  });
}

/**
 * The caller's three access levels on the project aliased `p`, as columns `acc_direct`,
 * `acc_group` and `acc_share` of one query (each `?` is the user's id, three of them; 0 for
 * nobody): a project membership; the highest membership of the project's group or its
 * ancestors; a membership of a group the project is shared with (or of one of its ancestors),
 * capped by the share's level. Access requests (requested_at) grant nothing.
 */
export const ACCESS_COLUMNS_SQL = `
  (SELECT m.access_level FROM members m
     WHERE m.source_type = 'project' AND m.source_id = p.id AND m.user_id = ? AND m.requested_at IS NULL) AS acc_direct,
  (SELECT MAX(m.access_level) FROM members m JOIN namespace_ancestors a ON a.ancestor_id = m.source_id
     WHERE m.source_type = 'group' AND m.user_id = ? AND a.namespace_id = p.namespace_id AND m.requested_at IS NULL) AS acc_group,
  (SELECT MAX(CASE WHEN m.access_level < l.group_access THEN m.access_level ELSE l.group_access END)
     FROM project_group_links l JOIN namespace_ancestors a ON a.namespace_id = l.group_id
     JOIN members m ON m.source_id = a.ancestor_id AND m.source_type = 'group'
     WHERE l.project_id = p.id AND m.user_id = ? AND m.requested_at IS NULL) AS acc_share`;

/** The bindings of ACCESS_COLUMNS_SQL for `user`. */
export function accessBindings(user: UserRow | null): number[] {
  const id = user ? user.id : 0;
  return [id, id, id];
}

export interface AccessColumns {
  acc_direct: number | null;
  acc_group: number | null;
  acc_share: number | null;
}

/** The ProjectAccess of the ACCESS_COLUMNS_SQL columns of a row. */
export function accessOf(user: UserRow | null, project: ProjectWithNamespace, row: AccessColumns): ProjectAccess {
  if (!user) return { projectLevel: null, groupLevel: null, owner: false };
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const direct = num(row.acc_direct);
  const share = num(row.acc_share);
  const groupLevel = project.namespace.kind === 'group' ? num(row.acc_group) : null;
  const projectLevel = direct === null ? share : share === null ? direct : Math.max(direct, share);
  const owner = project.namespace.kind === 'user' ? project.namespace.owner_id === user.id : groupLevel === OWNER;
  return { projectLevel, groupLevel, owner };
}

/** The user's access to a project (one query; works inside a transaction too). */
export async function projectAccess(db: Conn, user: UserRow | null, project: ProjectWithNamespace): Promise<ProjectAccess> {
  if (!user) return { projectLevel: null, groupLevel: null, owner: false };
  const result = await db.raw(`SELECT ${ACCESS_COLUMNS_SQL} FROM projects p WHERE p.id = ?`, [...accessBindings(user), project.id]);
  const rows = (Array.isArray(result) ? result : result.rows) as AccessColumns[];
  return accessOf(user, project, rows[0] ?? { acc_direct: null, acc_group: null, acc_share: null });
}

/** The highest level the user holds on the project, counting ownership as OWNER. */
export function maxLevel(access: ProjectAccess): number {
  if (access.owner) return OWNER;
  return Math.max(access.projectLevel ?? NO_ACCESS, access.groupLevel ?? NO_ACCESS);
}

/** Public, or internal and the user is signed in: readable without membership. */
export function openToAll(user: UserRow | null, project: ProjectWithNamespace): boolean {
  return project.visibility_level >= PUBLIC || (project.visibility_level >= INTERNAL && isSignedInRegular(user));
}

export function canReadProject(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  return isAdmin(user) || openToAll(user, project) || maxLevel(access) >= GUEST;
}

/**
 * Project-level abilities, with GitLab 10.8's names. Outside policy/, ask them through
 * `can(user, projectSubject(project, access), ability)` (policy/can.ts); abilities of issues,
 * merge requests and notes as a whole (read_issue, create_issue, create_merge_request_in, ...)
 * are answered there by their own rule files.
 */
export type ProjectLevelAbility =
  | 'read_project'
  | 'download_code'
  | 'read_project_member'
  | 'admin_project_member'
  | 'admin_project'
  | 'remove_project'
  | 'remove_fork_project'
  | 'rename_project'
  | 'archive_project'
  | 'change_visibility_level'
  | 'push_code'
  | 'push_to_delete_protected_branch'
  | 'admin_custom_attributes'
  | 'read_label'
  | 'admin_label'
  | 'read_milestone'
  | 'admin_milestone'
  | 'read_board' // boards: any reader (10.8 keeps them when issues are disabled)
  | 'admin_list' // a board's lists: reporters (refused on an archived project)
  | 'fork_project' // forks: reporters, and any signed-in reader of a public/internal project
  | 'read_pages'
  | 'update_pages'
  | 'read_commit_status'
  | 'create_commit_status';

const MIN_LEVEL: Record<ProjectLevelAbility, number> = {
  read_project: GUEST,
  read_project_member: GUEST,
  download_code: REPORTER,
  push_code: DEVELOPER,
  push_to_delete_protected_branch: MASTER,
  admin_project_member: MASTER,
  admin_project: MASTER,
  remove_project: OWNER,
  remove_fork_project: OWNER,
  rename_project: OWNER,
  archive_project: OWNER,
  change_visibility_level: OWNER,
  admin_custom_attributes: Number.POSITIVE_INFINITY, // admins only
  read_label: GUEST,
  admin_label: REPORTER,
  read_milestone: GUEST,
  admin_milestone: DEVELOPER, // not reporter: GitLab 10.8's ProjectPolicy
  read_board: GUEST,
  admin_list: REPORTER,
  fork_project: REPORTER,
  read_pages: MASTER, // pages domains: masters (archived projects refuse update_pages)
  update_pages: MASTER,
  // External CI's commit statuses (lib/api/commit_statuses.rb): reporters (and any reader of a
  // public or internal project) read them, developers post them; 10.8 keeps them when builds
  // are disabled, and its archived rule refuses create_commit_status.
  read_commit_status: REPORTER,
  create_commit_status: DEVELOPER,
};

/** Abilities that any reader of a public (or, signed in, internal) project also has. */
const MILESTONE_ABILITIES = new Set<ProjectLevelAbility>(['read_milestone', 'admin_milestone']);

/** Milestones exist for a project with issues or merge requests on. */
function milestonesOn(project: Pick<ProjectWithNamespace, 'issues_enabled' | 'merge_requests_enabled'>): boolean {
  return !!project.issues_enabled || !!project.merge_requests_enabled;
}

/**
 * Restricts a query on `projects` (under `alias`) to those whose milestones the user may read:
 * visible ones with issues or merge requests on.
 */
export function whereMilestonesReadable(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'projects'): Knex.QueryBuilder {
  whereVisibleProjects(q, db, user, alias);
  return q.where((w) => w.where(`${alias}.issues_enabled`, true).orWhere(`${alias}.merge_requests_enabled`, true));
}

const OPEN_ABILITIES = new Set<ProjectLevelAbility>([
  'read_project',
  'read_project_member',
  'download_code',
  'read_label',
  'read_milestone',
  'read_board',
  'fork_project',
  'read_commit_status',
]);

/**
 * The project rule itself (policy-internal: callers outside policy/ use `can()` of can.ts).
 * An archived project refuses its writes to everyone, admins included.
 */
export function projectCan(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, ability: ProjectLevelAbility): boolean {
  if (refusedOnArchived(project, ability)) return false;
  // 10.8's `issues_disabled & merge_requests_disabled` rule: milestones go with both, for everyone.
  if (MILESTONE_ABILITIES.has(ability) && !milestonesOn(project)) return false;
  if (isAdmin(user)) return true;
  if (user && user.state === 'blocked') return false;
  if (OPEN_ABILITIES.has(ability) && openToAll(user, project)) return true;
  return maxLevel(access) >= MIN_LEVEL[ability];
}
