// Group shapes: Group (lists, with `statistics` for admins who ask) and GroupDetail (single
// group: Group + its projects and the projects shared with it). Pure: the statistics and
// the projects are loaded by finders/groups.ts, the projects rendered by entities/project.ts.
import { lfsEnabled } from '../store/lfs.js';
import type { Urls } from '../http/urls.js';
import type { NamespaceRow } from '../store/rows.js';
import type { GroupStatistics } from '../store/extras.js';
import { visibilityName } from '../store/levels.js';

function groupEntity(urls: Urls, g: NamespaceRow, statistics?: GroupStatistics): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: g.id,
    web_url: urls.group(g.full_path),
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: visibilityName(g.visibility_level),
    lfs_enabled: lfsEnabled(g.lfs_enabled, urls.lfsEnabled),
    avatar_url: urls.avatar(g.avatar_url),
    request_access_enabled: !!g.request_access_enabled,
    full_name: g.full_name,
    full_path: g.full_path,
    parent_id: g.parent_id,
  };
  if (statistics) out.statistics = statistics;
  return out;
}

const NO_STATISTICS: GroupStatistics = { storage_size: 0, repository_size: 0, lfs_objects_size: 0, job_artifacts_size: 0 };

/** Groups, with the statistics when they were loaded (a group without projects shows zeros). */
export function groupEntities(urls: Urls, groups: NamespaceRow[], stats?: Map<number, GroupStatistics>): Record<string, unknown>[] {
  return groups.map((g) => groupEntity(urls, g, stats ? (stats.get(g.id) ?? NO_STATISTICS) : undefined));
}

/** GroupDetail: the group with its own and its shared projects, already rendered. */
export function groupDetailEntity(urls: Urls, group: NamespaceRow, projects: unknown[], sharedProjects: unknown[]): Record<string, unknown> {
  const out = groupEntity(urls, group);
  out.projects = projects;
  out.shared_projects = sharedProjects;
  return out;
}
