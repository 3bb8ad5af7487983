// Finding projects: one by id or full path, and filtered lists of the visible ones.
import type { Knex } from 'knex';
import type { Conn, Db } from '../store/db.js';
import type { RepoStore } from '../git/repos.js';
import type { NamespaceRow, ProjectRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { OWNER, visibilityLevel, type Visibility } from '../policy/levels.js';
import { ACCESS_COLUMNS_SQL, accessBindings, accessOf, authorizedProjectIds, whereVisibleProjects, type AccessColumns, type ProjectAccess } from '../policy/projects.js';
import { hotReader } from '../store/hot.js';
import { countedUnder, PROJECT_LIST_TOPICS } from '../store/count_cache.js';
import { storableId, storableText } from '../store/stored_values.js';
import { emptyExtras, sharedGroupsOf, type ProjectExtras } from './project_extras.js';

/** Every column of `namespaces` (the request query below names them; add new ones here). */
const NAMESPACE_COLUMNS = [
  'id',
  'kind',
  'name',
  'path',
  'full_path',
  'full_name',
  'owner_id',
  'parent_id',
  'description',
  'visibility_level',
  'request_access_enabled',
  'lfs_enabled',
  'avatar_url',
  'created_at',
  'updated_at',
] as const;

/**
 * The project of a request in one query: its row, its namespace, the caller's access levels
 * (policy/projects.ts), and what its answer shows besides (the owner of a personal project,
 * the forked-from project, whether it is shared with groups, the caller's membership of its
 * group). `?`: the caller's id (4 times), then the id or the namespace path and project path.
 */
function requestProjectSql(where: string): string {
  return `SELECT p.*, ${NAMESPACE_COLUMNS.map((c) => `n.${c} AS n_${c}`).join(', ')},
    ${ACCESS_COLUMNS_SQL},
    (SELECT m.access_level FROM members m WHERE m.source_type = 'group' AND m.source_id = p.namespace_id
       AND m.user_id = ? AND m.requested_at IS NULL) AS acc_namespace,
    EXISTS (SELECT 1 FROM project_group_links l WHERE l.project_id = p.id) AS has_links,
    ou.id AS ou_id, ou.name AS ou_name, ou.username AS ou_username, ou.state AS ou_state, ou.avatar_url AS ou_avatar_url,
    ou.email AS ou_email, ou.created_at AS ou_created_at,
    fp.id AS fp_id, fp.description AS fp_description, fp.name AS fp_name, fp.path AS fp_path, fp.created_at AS fp_created_at,
    fp.default_branch AS fp_default_branch, fp.tag_list AS fp_tag_list, fp.avatar_url AS fp_avatar_url, fp.star_count AS fp_star_count,
    fp.forks_count AS fp_forks_count, fp.last_activity_at AS fp_last_activity_at, fn.full_path AS fn_full_path, fn.full_name AS fn_full_name
  FROM projects p
  JOIN namespaces n ON n.id = p.namespace_id
  LEFT JOIN users ou ON n.kind = 'user' AND ou.id = n.owner_id
  LEFT JOIN projects fp ON fp.id = p.forked_from_id
  LEFT JOIN namespaces fn ON fn.id = fp.namespace_id
  WHERE ${where} LIMIT 1`;
}

const BY_ID_SQL = requestProjectSql('p.id = ?');
const BY_PATH_SQL = requestProjectSql('lower(n.full_path) = ? AND lower(p.path) = ?');

export interface RequestProject {
  project: ProjectWithNamespace;
  access: ProjectAccess;
  /** What the project's own answer shows besides the row (GET /projects/:id needs no more queries). */
  extras: ProjectExtras;
}

/**
 * The project of `idOrPath` with the caller's access and its answer's extras, in one query
 * outside any transaction (the request's first read; see store/hot.ts), or undefined.
 */
export async function findProjectForRequest(db: Db, user: UserRow | null, idOrPath: string): Promise<RequestProject | undefined> {
  const who = accessBindings(user);
  const id = user ? user.id : 0;
  let row: Record<string, any> | undefined;
  if (!storableText(idOrPath)) return undefined;
  if (/^\d+$/.test(idOrPath)) {
    const n = storableId(idOrPath);
    if (n === null) return undefined;
    row = await hotReader(db).first(BY_ID_SQL, [...who, id, n]);
  } else {
    const slash = idOrPath.lastIndexOf('/');
    if (slash <= 0) return undefined;
    row = await hotReader(db).first(BY_PATH_SQL, [...who, id, idOrPath.slice(0, slash).toLowerCase(), idOrPath.slice(slash + 1).toLowerCase()]);
  }
  if (!row) return undefined;
  return requestProjectOf(db, user, row);
}

async function requestProjectOf(db: Db, user: UserRow | null, row: Record<string, any>): Promise<RequestProject> {
  const namespace = {} as Record<string, unknown>;
  for (const c of NAMESPACE_COLUMNS) namespace[c] = row[`n_${c}`];
  const project = { namespace } as unknown as ProjectWithNamespace & Record<string, unknown>;
  for (const key in row) {
    if (!EXTRA_KEY.test(key)) project[key] = row[key];
  }
  const access = accessOf(user, project, row as AccessColumns);
  const extras = emptyExtras();
  if (row.ou_id !== null && row.ou_id !== undefined) {
    extras.owners.set(row.ou_id, {
      id: row.ou_id,
      name: row.ou_name,
      username: row.ou_username,
      state: row.ou_state,
      avatar_url: row.ou_avatar_url,
      email: row.ou_email,
      created_at: row.ou_created_at,
    });
  }
  if (row.fp_id !== null && row.fp_id !== undefined) {
    extras.forkedFrom.set(row.fp_id, {
      id: row.fp_id,
      description: row.fp_description,
      name: row.fp_name,
      path: row.fp_path,
      created_at: row.fp_created_at,
      default_branch: row.fp_default_branch,
      tag_list: row.fp_tag_list,
      avatar_url: row.fp_avatar_url,
      star_count: row.fp_star_count,
      forks_count: row.fp_forks_count,
      last_activity_at: row.fp_last_activity_at,
      namespace: { full_path: row.fn_full_path, full_name: row.fn_full_name },
    });
  }
  if (row.acc_direct !== null && row.acc_direct !== undefined) extras.projectAccess.set(project.id, Number(row.acc_direct));
  if (row.acc_namespace !== null && row.acc_namespace !== undefined) extras.groupAccess.set(project.namespace_id, Number(row.acc_namespace));
  if (row.has_links && Number(row.has_links) !== 0) extras.links = await sharedGroupsOf(db, [project.id]);
  return { project, access, extras };
}

/** The columns of the request query that are not the project's own. */
const EXTRA_KEY = /^(?:n_|ou_|fp_|fn_|acc_|has_links$)/;

/** Digits are an id; anything else a URL-decoded full path (`group/sub/project`), case-insensitive. */
export async function findProjectByIdOrPath(db: Conn, idOrPath: string): Promise<ProjectWithNamespace | undefined> {
  let project: ProjectRow | undefined;
  if (!storableText(idOrPath)) return undefined;
  if (/^\d+$/.test(idOrPath)) {
    const id = storableId(idOrPath);
    if (id === null) return undefined;
    project = await db('projects').where({ id }).first();
  } else {
    const slash = idOrPath.lastIndexOf('/');
    if (slash <= 0) return undefined;
    project = await db('projects as p')
      .select('p.*')
      .join('namespaces as n', 'n.id', 'p.namespace_id')
      .whereRaw('lower(n.full_path) = ?', [idOrPath.slice(0, slash).toLowerCase()])
      .whereRaw('lower(p.path) = ?', [idOrPath.slice(slash + 1).toLowerCase()])
      .first();
  }
  if (!project) return undefined;
  const namespace: NamespaceRow = await db('namespaces').where({ id: project.namespace_id }).first();
  return { ...project, namespace };
}

/** Loads the namespaces of project rows (one query). */
export async function withNamespaces(db: Conn, rows: ProjectRow[]): Promise<ProjectWithNamespace[]> {
  if (!rows.length) return [];
  const ids = [...new Set(rows.map((r) => r.namespace_id))];
  const namespaces: NamespaceRow[] = await db('namespaces').whereIn('id', ids);
  const byId = new Map(namespaces.map((n) => [n.id, n]));
  return rows.map((r) => ({ ...r, namespace: byId.get(r.namespace_id)! }));
}

export function fullPathOf(project: ProjectWithNamespace): string {
  return `${project.namespace.full_path}/${project.path}`;
}

/** The folder of a project's bare repository. */
export function gitdirOf(repos: RepoStore, project: ProjectWithNamespace): string {
  return repos.pathFor(fullPathOf(project));
}

export type ProjectOrder = 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';
export const PROJECT_ORDERS: readonly ProjectOrder[] = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'];

export interface ProjectFilters {
  archived?: boolean;
  visibility?: Visibility;
  search?: string;
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  withIssuesEnabled?: boolean;
  withMergeRequestsEnabled?: boolean;
  /** Admins only: `custom_attributes[key]=value`, all must match. */
  customAttributes?: Record<string, string>;
  /** Personal projects of this user (GET /users/:id/projects). */
  personalOf?: UserRow;
  /** Only those the user is a member of at this level or more (later GitLab's min_access_level). */
  minAccessLevel?: number;
  /** Projects of this group (GET /groups/:id/projects), shared ones too unless `onlyOwned`. */
  group?: NamespaceRow;
  onlyOwned?: boolean;
  /** With the projects of its subgroups, at any depth (shared ones stay the group's own). */
  includeSubgroups?: boolean;
  /** Direct forks of this project (GET /projects/:id/forks). */
  forkedFromId?: number;
  orderBy: ProjectOrder;
  sort: 'asc' | 'desc';
}

/** `LIKE` pattern for a substring search, with the wildcards in the term escaped. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The projects a user may see, filtered and ordered: one query, ready for pagination. */
export function projectsQuery(db: Conn, user: UserRow | null, f: ProjectFilters): Knex.QueryBuilder {
  const q = db('projects').select('projects.*');
  whereVisibleProjects(q, db, user);
  if (f.personalOf) {
    q.whereIn('projects.namespace_id', db('namespaces').select('id').where({ kind: 'user', owner_id: f.personalOf.id }));
  }
  if (f.group) {
    const groupId = f.group.id;
    q.where((w) => {
      if (f.includeSubgroups) w.whereIn('projects.namespace_id', db('namespace_ancestors').select('namespace_id').where('ancestor_id', groupId));
      else w.where('projects.namespace_id', groupId);
      if (!f.onlyOwned) w.orWhereIn('projects.id', db('project_group_links').select('project_id').where({ group_id: groupId }));
    });
  }
  if (f.forkedFromId !== undefined) q.where('projects.forked_from_id', f.forkedFromId);
  if (!f.archived) q.where('projects.archived', false);
  if (f.visibility) q.where('projects.visibility_level', visibilityLevel(f.visibility));
  if (f.search && !storableText(f.search))
    q.whereRaw('1 = 0'); // no name holds a NUL (fuzzy.ts)
  else if (f.search) {
    const pattern = containsPattern(f.search);
    q.where((w) =>
      w
        .whereRaw("lower(projects.name) LIKE ? ESCAPE '\\'", [pattern])
        .orWhereRaw("lower(projects.path) LIKE ? ESCAPE '\\'", [pattern])
        .orWhereRaw("lower(projects.description) LIKE ? ESCAPE '\\'", [pattern]),
    );
  }
  if (f.owned || f.membership || f.starred || f.minAccessLevel !== undefined) {
    if (!user) return q.whereRaw('1 = 0');
    // An admin too sees only the projects of their memberships (ProjectsFinder: authorized_projects).
    if (f.minAccessLevel !== undefined) q.whereIn('projects.id', authorizedProjectIds(db, user.id, f.minAccessLevel));
    if (f.owned) {
      q.whereIn(
        'projects.namespace_id',
        db('namespaces')
          .select('id')
          .where({ kind: 'user', owner_id: user.id })
          .union(db('members').select('source_id').where({ source_type: 'group', user_id: user.id, access_level: OWNER }).whereNull('requested_at')),
      );
    }
    if (f.membership) q.whereIn('projects.id', authorizedProjectIds(db, user.id));
    if (f.starred) q.whereIn('projects.id', db('users_star_projects').select('project_id').where({ user_id: user.id }));
  }
  if (f.withIssuesEnabled) q.where('projects.issues_enabled', true);
  if (f.withMergeRequestsEnabled) q.where('projects.merge_requests_enabled', true);
  for (const [key, value] of Object.entries(f.customAttributes ?? {})) {
    q.whereExists(db('custom_attributes').select(db.raw('1')).where({ subject_type: 'project', key, value }).whereRaw('custom_attributes.subject_id = projects.id'));
  }
  // id breaks ties so that pages never overlap or skip rows created in the same millisecond.
  countedUnder(q, PROJECT_LIST_TOPICS);
  return q.orderBy([{ column: `projects.${f.orderBy}`, order: f.sort }, ...(f.orderBy === 'id' ? [] : [{ column: 'projects.id', order: f.sort }])]);
}
