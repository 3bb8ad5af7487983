// Project shapes: BasicProjectDetails (anonymous and `simple` lists), Project (create/update),
// ProjectWithAccess (signed-in reads, with `permissions`). Pure: everything a page embeds is
// loaded beforehand by finders/project_extras.ts (one query per kind for a whole page), and
// the counts are columns of the row.
import { lfsEnabled } from '../store/lfs.js';
import type { Urls } from '../http/urls.js';
import type { NamespaceRow, ProjectWithNamespace } from '../store/rows.js';
import type { ForkedFromProject, ProjectExtras, ProjectStatisticsRow } from '../store/extras.js';
import { visibilityName } from '../store/levels.js';
import { userBasic } from './user.js';

export type ProjectView = 'basic' | 'project' | 'withAccess';

export interface PresentOptions {
  /** basic: BasicProjectDetails; project: Project; withAccess: Project + permissions. Default withAccess when signed in. */
  view?: ProjectView;
  statistics?: boolean;
  /** Admins asked for `with_custom_attributes`. */
  customAttributes?: boolean;
  /** Show runners_token and import_error (single-project answers to masters and admins). */
  canAdmin?: boolean;
}

/** Notification level GitLab reports for a member with default settings ("global"). */
const GLOBAL_NOTIFICATION_LEVEL = 3;

type BasicFields = ForkedFromProject & { namespace: Pick<NamespaceRow, 'full_path' | 'full_name'> };

function tagList(tags: string): string[] {
  try {
    const parsed = JSON.parse(tags);
    return Array.isArray(parsed) ? parsed.map(String).sort() : [];
  } catch {
    return [];
  }
}

/** GitLab's ProjectIdentity: what every project entity (and an export's or import's status) starts with. */
export function projectIdentity(p: Pick<BasicFields, 'id' | 'description' | 'name' | 'path' | 'created_at' | 'namespace'>) {
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.namespace.full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: `${p.namespace.full_path}/${p.path}`,
    created_at: p.created_at,
  };
}

function basicDetails(urls: Urls, p: BasicFields) {
  const path = `${p.namespace.full_path}/${p.path}`;
  return {
    ...projectIdentity(p),
    default_branch: p.default_branch,
    tag_list: p.tag_list === '[]' ? [] : tagList(p.tag_list),
    ssh_url_to_repo: urls.sshRepo(path),
    http_url_to_repo: urls.httpRepo(path),
    web_url: urls.web(path),
    avatar_url: urls.avatar(p.avatar_url),
    star_count: p.star_count,
    forks_count: p.forks_count,
    last_activity_at: p.last_activity_at,
  };
}

function access(level: number | undefined) {
  return level === undefined ? null : { access_level: level, notification_level: GLOBAL_NOTIFICATION_LEVEL };
}

function statistics(s: ProjectStatisticsRow | undefined) {
  const n = (v: unknown) => Number(v ?? 0);
  const repository = n(s?.repository_size);
  const lfs = n(s?.lfs_objects_size);
  const artifacts = n(s?.job_artifacts_size);
  return {
    commit_count: n(s?.commit_count),
    storage_size: repository + lfs + artifacts,
    repository_size: repository,
    lfs_objects_size: lfs,
    job_artifacts_size: artifacts,
  };
}

/** The view a user gets when none is asked for: with access when signed in. */
export function defaultView(signedIn: boolean, opts: PresentOptions): ProjectView {
  return opts.view ?? (signedIn ? 'withAccess' : 'basic');
}

/** One project in `view` (see defaultView), from its extras (finders/project_extras.ts). */
export function projectEntity(urls: Urls, p: ProjectWithNamespace, extras: ProjectExtras, view: ProjectView, opts: PresentOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = basicDetails(urls, p);
  if (opts.customAttributes) out.custom_attributes = extras.attributes.get(p.id) ?? [];
  if (view === 'basic') return out;
  const api = urls.apiProject(p.id);
  const links: Record<string, string> = { self: api };
  if (p.issues_enabled) links.issues = `${api}/issues`;
  if (p.merge_requests_enabled) links.merge_requests = `${api}/merge_requests`;
  links.repo_branches = `${api}/repository/branches`;
  links.labels = `${api}/labels`;
  links.events = `${api}/events`;
  links.members = `${api}/members`;
  out._links = links;
  out.archived = !!p.archived;
  out.visibility = visibilityName(p.visibility_level);
  const owner = p.namespace.kind === 'user' ? extras.owners.get(p.namespace.owner_id!) : undefined;
  if (owner) {
    const o: Record<string, unknown> = userBasic(owner, urls);
    o.created_at = owner.created_at;
    out.owner = o;
  }
  out.resolve_outdated_diff_discussions = !!p.resolve_outdated_diff_discussions;
  out.container_registry_enabled = !!p.container_registry_enabled;
  out.issues_enabled = !!p.issues_enabled;
  out.merge_requests_enabled = !!p.merge_requests_enabled;
  out.wiki_enabled = !!p.wiki_enabled;
  out.jobs_enabled = !!p.jobs_enabled;
  out.snippets_enabled = !!p.snippets_enabled;
  out.shared_runners_enabled = !!p.shared_runners_enabled;
  out.lfs_enabled = lfsEnabled(p.lfs_enabled, urls.lfsEnabled);
  out.creator_id = p.creator_id;
  out.namespace = {
    id: p.namespace.id,
    name: p.namespace.name,
    path: p.namespace.path,
    kind: p.namespace.kind,
    full_path: p.namespace.full_path,
    parent_id: p.namespace.parent_id,
  };
  const forkedFrom = p.forked_from_id ? extras.forkedFrom.get(p.forked_from_id) : undefined;
  if (forkedFrom) out.forked_from_project = basicDetails(urls, forkedFrom);
  out.import_status = p.import_status;
  if (opts.canAdmin) out.import_error = p.import_error;
  // Confidential issues are not counted, so the number exposes nothing.
  if (p.issues_enabled) out.open_issues_count = p.open_issues_count;
  if (opts.canAdmin) out.runners_token = p.runners_token;
  out.public_jobs = !!p.public_jobs;
  out.ci_config_path = p.ci_config_path;
  out.shared_with_groups = extras.links.get(p.id) ?? [];
  out.only_allow_merge_if_pipeline_succeeds = !!p.only_allow_merge_if_pipeline_succeeds;
  out.request_access_enabled = !!p.request_access_enabled;
  out.only_allow_merge_if_all_discussions_are_resolved = !!p.only_allow_merge_if_all_discussions_are_resolved;
  out.printing_merge_request_link_enabled = !!p.printing_merge_request_link_enabled;
  out.merge_method = p.merge_method;
  if (opts.statistics) out.statistics = statistics(extras.stats.get(p.id));
  if (view === 'withAccess') {
    out.permissions = {
      project_access: access(extras.projectAccess.get(p.id)),
      group_access: p.namespace.kind === 'group' ? access(extras.groupAccess.get(p.namespace_id)) : null,
    };
  }
  return out;
}
