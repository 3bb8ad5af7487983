// Group shapes: Group (lists, with `statistics` for admins who ask) and GroupDetail (single
// group: Group + its projects and the projects shared with it).
import type { Knex } from 'knex';
import type { Deps } from '../deps.js';
import type { NamespaceRow, ProjectRow, UserRow } from '../store/rows.js';
import { visibilityName } from '../store/levels.js';
import { whereVisibleProjects } from '../policy/projects.js';
import { presentProjects, withNamespaces } from './project.js';

export interface GroupStatistics {
  storage_size: number;
  repository_size: number;
  lfs_objects_size: number;
  job_artifacts_size: number;
}

export function groupEntity(deps: Deps, g: NamespaceRow, statistics?: GroupStatistics): Record<string, unknown> {
  return {
    id: g.id,
    web_url: deps.urls.group(g.full_path),
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: visibilityName(g.visibility_level),
    lfs_enabled: !!g.lfs_enabled,
    avatar_url: deps.urls.avatar(g.avatar_url),
    request_access_enabled: !!g.request_access_enabled,
    full_name: g.full_name,
    full_path: g.full_path,
    parent_id: g.parent_id,
    ...(statistics ? { statistics } : {}),
  };
}

/** Sums the statistics of the projects directly in each group (one query), as GitLab does. */
async function statisticsOf(deps: Deps, groupIds: number[]): Promise<Map<number, GroupStatistics>> {
  const rows = groupIds.length
    ? await deps.db('projects as p')
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

const NO_STATISTICS: GroupStatistics = { storage_size: 0, repository_size: 0, lfs_objects_size: 0, job_artifacts_size: 0 };

export async function presentGroups(deps: Deps, groups: NamespaceRow[], opts: { statistics?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const stats = opts.statistics ? await statisticsOf(deps, groups.map((g) => g.id)) : undefined;
  return groups.map((g) => groupEntity(deps, g, stats ? (stats.get(g.id) ?? NO_STATISTICS) : undefined));
}

/**
 * GroupDetail: the group's own projects (not its subgroups') and those shared with it, each
 * as the user may see them, newest first, in full Project form.
 */
export async function presentGroupDetail(deps: Deps, user: UserRow | null, group: NamespaceRow): Promise<Record<string, unknown>> {
  const visible = (q: Knex.QueryBuilder) => whereVisibleProjects(q.select('projects.*'), deps.db, user).orderBy('projects.id', 'desc');
  const [own, shared] = await Promise.all([
    visible(deps.db('projects').where('projects.namespace_id', group.id)),
    visible(deps.db('projects').whereIn('projects.id', deps.db('project_group_links').select('project_id').where('group_id', group.id))),
  ]);
  const [projects, sharedProjects] = await Promise.all([
    withNamespaces(deps.db, own as ProjectRow[]).then((p) => presentProjects(deps, user, p, { view: 'project' })),
    withNamespaces(deps.db, shared as ProjectRow[]).then((p) => presentProjects(deps, user, p, { view: 'project' })),
  ]);
  return { ...groupEntity(deps, group), projects, shared_projects: sharedProjects };
}
