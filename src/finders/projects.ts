// Finding projects: one by id or full path, and filtered lists of the visible ones.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, ProjectRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { OWNER, visibilityLevel, type Visibility } from '../policy/levels.js';
import { authorizedProjectIds, whereVisibleProjects } from '../policy/projects.js';
import { storableId, storableText } from '../store/stored_values.js';


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

export function fullPathOf(project: ProjectWithNamespace): string {
  return `${project.namespace.full_path}/${project.path}`;
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
  /** Projects of this group (GET /groups/:id/projects), shared ones too unless `onlyOwned`. */
  group?: NamespaceRow;
  onlyOwned?: boolean;
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
      w.where('projects.namespace_id', groupId);
      if (!f.onlyOwned) w.orWhereIn('projects.id', db('project_group_links').select('project_id').where({ group_id: groupId }));
    });
  }
  if (f.forkedFromId !== undefined) q.where('projects.forked_from_id', f.forkedFromId);
  if (!f.archived) q.where('projects.archived', false);
  if (f.visibility) q.where('projects.visibility_level', visibilityLevel(f.visibility));
  if (f.search && !storableText(f.search)) q.whereRaw('1 = 0'); // no name holds a NUL (fuzzy.ts)
  else if (f.search) {
    const pattern = containsPattern(f.search);
    q.where((w) =>
      w
        .whereRaw("lower(projects.name) LIKE ? ESCAPE '\\'", [pattern])
        .orWhereRaw("lower(projects.path) LIKE ? ESCAPE '\\'", [pattern])
        .orWhereRaw("lower(projects.description) LIKE ? ESCAPE '\\'", [pattern]),
    );
  }
  if (f.owned || f.membership || f.starred) {
    if (!user) return q.whereRaw('1 = 0');
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
    q.whereExists(
      db('custom_attributes')
        .select(db.raw('1'))
        .where({ subject_type: 'project', key, value })
        .whereRaw('custom_attributes.subject_id = projects.id'),
    );
  }
  // id breaks ties so that pages never overlap or skip rows created in the same millisecond.
  return q.orderBy([
    { column: `projects.${f.orderBy}`, order: f.sort },
    ...(f.orderBy === 'id' ? [] : [{ column: 'projects.id', order: f.sort }]),
  ]);
}
