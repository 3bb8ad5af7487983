// Looking groups up by id or full path, and the filtered, ordered group lists.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, ProjectRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { whereListedGroups } from '../policy/groups.js';
import { whereVisibleProjects } from '../policy/projects.js';
import { withNamespaces } from './projects.js';
import { orFuzzyMatch } from './fuzzy.js';
import type { GroupStatistics } from '../store/extras.js';
export type { GroupStatistics } from '../store/extras.js';
import { storableId, storableText } from '../store/stored_values.js';

/** Digits are an id; anything else a URL-decoded full path, case-insensitive. */
export async function findGroupByIdOrPath(db: Conn, idOrPath: string): Promise<NamespaceRow | undefined> {
  if (!storableText(idOrPath)) return undefined;
  const q = db('namespaces').where({ kind: 'group' });
  if (/^\d+$/.test(idOrPath)) {
    const id = storableId(idOrPath);
    return id === null ? undefined : q.where({ id }).first();
  }
  return q.whereRaw('lower(full_path) = ?', [idOrPath.toLowerCase()]).first();
}

/** Ids of the group and every group below it. */
export function subtreeIds(db: Conn, groupId: number): Knex.QueryBuilder {
  return db('namespace_ancestors').select('namespace_id').where('ancestor_id', groupId);
}

export interface GroupFilters {
  allAvailable: boolean;
  owned: boolean;
  /** Only the direct children of this group (GET /groups/:id/subgroups). */
  parent?: NamespaceRow;
  search?: string;
  skipGroups?: number[];
  orderBy: 'name' | 'path';
  sort: 'asc' | 'desc';
}

/** The groups listed to the user, filtered and ordered: one query, ready for pagination. */
export function groupsQuery(db: Conn, user: UserRow | null, f: GroupFilters): Knex.QueryBuilder {
  const q = db('namespaces').select('namespaces.*').where('namespaces.kind', 'group');
  whereListedGroups(q, db, user, { allAvailable: f.allAvailable, owned: f.owned });
  if (f.parent) q.where('namespaces.parent_id', f.parent.id);
  const search = f.search;
  if (search) {
    q.where((w) => {
      orFuzzyMatch(w, 'namespaces.name', search);
      orFuzzyMatch(w, 'namespaces.path', search);
    });
  }
  if (f.skipGroups?.length) q.whereNotIn('namespaces.id', f.skipGroups);
  // id breaks ties so that pages never overlap.
  return q.orderBy([
    { column: `namespaces.${f.orderBy}`, order: f.sort },
    { column: 'namespaces.id', order: f.sort },
  ]);
}

/** Sums the statistics of the projects directly in each group (one query), as GitLab does. */
export async function groupStatistics(db: Conn, groupIds: number[]): Promise<Map<number, GroupStatistics>> {
  const rows = groupIds.length
    ? await db('projects as p')
        .join('project_statistics as s', 's.project_id', 'p.id')
        .whereIn('p.namespace_id', groupIds)
        .groupBy('p.namespace_id')
        .select('p.namespace_id')
        .sum({ repository_size: 's.repository_size', lfs_objects_size: 's.lfs_objects_size', job_artifacts_size: 's.job_artifacts_size' })
    : [];
  const out = new Map<number, GroupStatistics>();
  for (const r of rows as Record<string, number | string | null>[]) {
    const n = (v: unknown) => Number(v ?? 0);
    const repository = n(r.repository_size);
    const lfs = n(r.lfs_objects_size);
    const artifacts = n(r.job_artifacts_size);
    out.set(Number(r.namespace_id), {
      storage_size: repository + lfs + artifacts,
      repository_size: repository,
      lfs_objects_size: lfs,
      job_artifacts_size: artifacts,
    });
  }
  return out;
}

/**
 * GroupDetail's projects: the group's own (not its subgroups') and those shared with it,
 * each as the user may see them, newest first.
 */
export async function groupDetailProjects(db: Conn, user: UserRow | null, group: NamespaceRow): Promise<{ own: ProjectWithNamespace[]; shared: ProjectWithNamespace[] }> {
  const visible = (q: Knex.QueryBuilder) => whereVisibleProjects(q.select('projects.*'), db, user).orderBy('projects.id', 'desc');
  const [own, shared] = await Promise.all([
    visible(db('projects').where('projects.namespace_id', group.id)).then((rows: ProjectRow[]) => withNamespaces(db, rows)),
    visible(db('projects').whereIn('projects.id', db('project_group_links').select('project_id').where('group_id', group.id))).then((rows: ProjectRow[]) =>
      withNamespaces(db, rows),
    ),
  ]);
  return { own, shared };
}
