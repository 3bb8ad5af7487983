// What a project answer shows beyond its own row and namespace (GitLab 10.8's Project and
// ProjectWithAccess entities): the owner of a personal project, the project it was forked
// from, the groups it is shared with, and, when asked, statistics, custom attributes and the
// caller's memberships. Loaded here, one query per kind for a whole page, so that the
// presenter (src/entities/project.ts) only renders. Counts are columns of the row.
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { ForkedFromProject, ProjectOwner, SharedGroup, ProjectStatisticsRow, ProjectExtras } from '../store/extras.js';
export type { SharedGroup, ProjectExtras } from '../store/extras.js';

export interface ExtrasWanted {
  /** Owner, forked-from project and group shares (every view but BasicProjectDetails). */
  full: boolean;
  /** The caller's memberships (ProjectWithAccess's `permissions`). */
  access: boolean;
  statistics?: boolean;
  customAttributes?: boolean;
}

export function emptyExtras(): ProjectExtras {
  return { owners: new Map(), forkedFrom: new Map(), links: new Map(), stats: new Map(), attributes: new Map(), projectAccess: new Map(), groupAccess: new Map() };
}

const OWNER_COLUMNS = ['id', 'name', 'username', 'state', 'avatar_url', 'email', 'created_at'];
const FORKED_COLUMNS = [
  'p.id',
  'p.description',
  'p.name',
  'p.path',
  'p.created_at',
  'p.default_branch',
  'p.tag_list',
  'p.avatar_url',
  'p.star_count',
  'p.forks_count',
  'p.last_activity_at',
  'n.full_path as n_full_path',
  'n.full_name as n_full_name',
];

/** The group shares of projects, by project id, in the order they were made. */
export async function sharedGroupsOf(db: Conn, projectIds: number[]): Promise<Map<number, SharedGroup[]>> {
  const out = new Map<number, SharedGroup[]>();
  if (!projectIds.length) return out;
  const rows: (SharedGroup & { project_id: number })[] = await db('project_group_links as l')
    .join('namespaces as n', 'n.id', 'l.group_id')
    .whereIn('l.project_id', projectIds)
    .orderBy('l.id')
    .select('l.project_id', 'l.group_id', 'n.name as group_name', 'l.group_access as group_access_level');
  for (const r of rows) {
    const link = { group_id: r.group_id, group_name: r.group_name, group_access_level: r.group_access_level };
    const list = out.get(r.project_id);
    if (list) list.push(link);
    else out.set(r.project_id, [link]);
  }
  return out;
}

/** Statistics and custom attributes, into `extras` (for a project loaded with its other extras). */
export async function loadOnDemandExtras(db: Conn, projectIds: number[], wanted: ExtrasWanted, extras: ProjectExtras): Promise<void> {
  const none = Promise.resolve([] as never[]);
  const [stats, attributes] = await Promise.all([
    wanted.statistics ? db('project_statistics').whereIn('project_id', projectIds) : none,
    wanted.customAttributes ? db('custom_attributes').where({ subject_type: 'project' }).whereIn('subject_id', projectIds).orderBy('key') : none,
  ]);
  for (const s of stats as (ProjectStatisticsRow & { project_id: number })[]) extras.stats.set(s.project_id, s);
  for (const a of attributes as { subject_id: number; key: string; value: string }[]) {
    const list = extras.attributes.get(a.subject_id);
    if (list) list.push({ key: a.key, value: a.value });
    else extras.attributes.set(a.subject_id, [{ key: a.key, value: a.value }]);
  }
}

/** Everything `wanted` for a page of projects: one query per kind, all at once. */
export async function loadProjectExtras(db: Conn, user: UserRow | null, projects: ProjectWithNamespace[], wanted: ExtrasWanted): Promise<ProjectExtras> {
  const extras = emptyExtras();
  if (!projects.length) return extras;
  const ids = projects.map((p) => p.id);
  const none = Promise.resolve([] as never[]);
  const ownerIds = wanted.full ? [...new Set(projects.filter((p) => p.namespace.kind === 'user').map((p) => p.namespace.owner_id!))] : [];
  const forkedFromIds = wanted.full ? [...new Set(projects.map((p) => p.forked_from_id).filter((x): x is number => x !== null))] : [];
  const groupIds = [...new Set(projects.filter((p) => p.namespace.kind === 'group').map((p) => p.namespace_id))];
  const withAccess = wanted.access && user;
  const [owners, forked, links, projectMembers, groupMembers] = await Promise.all([
    ownerIds.length ? db('users').whereIn('id', ownerIds).select(OWNER_COLUMNS) : none,
    forkedFromIds.length ? db('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').whereIn('p.id', forkedFromIds).select(FORKED_COLUMNS) : none,
    wanted.full ? sharedGroupsOf(db, ids) : Promise.resolve(new Map<number, SharedGroup[]>()),
    withAccess ? db('members').where({ source_type: 'project', user_id: user.id }).whereNull('requested_at').whereIn('source_id', ids).select('source_id', 'access_level') : none,
    withAccess && groupIds.length
      ? db('members').where({ source_type: 'group', user_id: user.id }).whereNull('requested_at').whereIn('source_id', groupIds).select('source_id', 'access_level')
      : none,
    loadOnDemandExtras(db, ids, wanted, extras),
  ]);
  for (const u of owners as ProjectOwner[]) extras.owners.set(u.id, u);
  for (const f of forked as (ForkedFromProject & { n_full_path: string; n_full_name: string })[]) {
    const { n_full_path, n_full_name, ...row } = f;
    extras.forkedFrom.set(f.id, { ...row, namespace: { full_path: n_full_path, full_name: n_full_name } });
  }
  extras.links = links;
  for (const m of projectMembers as { source_id: number; access_level: number }[]) extras.projectAccess.set(m.source_id, m.access_level);
  for (const m of groupMembers as { source_id: number; access_level: number }[]) extras.groupAccess.set(m.source_id, m.access_level);
  return extras;
}
