// Project shapes: BasicProjectDetails (anonymous and `simple` lists), Project (create/update),
// ProjectWithAccess (signed-in reads, with `permissions`). Everything a page embeds is
// batch-loaded: a fixed number of queries per page, whatever its size.
import type { Deps } from '../deps.js';
import type { Conn } from '../store/db.js';
import type { MemberRow, NamespaceRow, ProjectRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
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

/** Loads the namespaces of project rows (one query). */
export async function withNamespaces(db: Conn, rows: ProjectRow[]): Promise<ProjectWithNamespace[]> {
  if (!rows.length) return [];
  const ids = [...new Set(rows.map((r) => r.namespace_id))];
  const namespaces: NamespaceRow[] = await db('namespaces').whereIn('id', ids);
  const byId = new Map(namespaces.map((n) => [n.id, n]));
  return rows.map((r) => ({ ...r, namespace: byId.get(r.namespace_id)! }));
}

function fullPath(p: ProjectWithNamespace): string {
  return `${p.namespace.full_path}/${p.path}`;
}

function tagList(p: ProjectRow): string[] {
  try {
    const tags = JSON.parse(p.tag_list);
    return Array.isArray(tags) ? tags.map(String).sort() : [];
  } catch {
    return [];
  }
}

function groupBy<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

function basicDetails(deps: Deps, p: ProjectWithNamespace, forksCount: number) {
  const path = fullPath(p);
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.namespace.full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: path,
    created_at: p.created_at,
    default_branch: p.default_branch,
    tag_list: tagList(p),
    ssh_url_to_repo: deps.urls.sshRepo(path),
    http_url_to_repo: deps.urls.httpRepo(path),
    web_url: deps.urls.web(path),
    avatar_url: deps.urls.avatar(p.avatar_url),
    star_count: p.star_count,
    forks_count: forksCount,
    last_activity_at: p.last_activity_at,
  };
}

interface Batch {
  forks: Map<number, number>;
  owners: Map<number, UserRow>;
  links: Map<number, { group_id: number; group_name: string; group_access_level: number }[]>;
  stats: Map<number, Record<string, number>>;
  attributes: Map<number, { key: string; value: string }[]>;
  forkedFrom: Map<number, ProjectWithNamespace>;
  projectMembers: Map<number, MemberRow>;
  groupMembers: Map<number, MemberRow>;
  /** Open, non-confidential issues per project (GitLab's OpenIssuesCountService). */
  openIssues: Map<number, number>;
}

async function loadBatch(db: Conn, user: UserRow | null, projects: ProjectWithNamespace[], opts: PresentOptions, full: boolean): Promise<Batch> {
  const ids = projects.map((p) => p.id);
  const none = Promise.resolve([] as never[]);
  const ownerIds = [...new Set(projects.filter((p) => p.namespace.kind === 'user').map((p) => p.namespace.owner_id!))];
  const forkedFromIds = [...new Set(projects.map((p) => p.forked_from_id).filter((x): x is number => x !== null))];
  const groupIds = [...new Set(projects.filter((p) => p.namespace.kind === 'group').map((p) => p.namespace_id))];
  const [forkRows, owners, links, stats, attributes, forkedFromRows, projectMembers, groupMembers, openIssueRows] = await Promise.all([
    db('projects').select('forked_from_id').count({ n: '*' }).whereIn('forked_from_id', ids).groupBy('forked_from_id'),
    full && ownerIds.length ? db('users').whereIn('id', ownerIds) : none,
    full
      ? db('project_group_links as l')
          .join('namespaces as n', 'n.id', 'l.group_id')
          .whereIn('l.project_id', ids)
          .orderBy('l.id')
          .select('l.project_id', 'l.group_id', 'n.name as group_name', 'l.group_access as group_access_level')
      : none,
    opts.statistics ? db('project_statistics').whereIn('project_id', ids) : none,
    opts.customAttributes ? db('custom_attributes').where({ subject_type: 'project' }).whereIn('subject_id', ids).orderBy('key') : none,
    full && forkedFromIds.length ? db('projects').whereIn('id', forkedFromIds) : none,
    opts.view === 'withAccess' && user
      ? db('members').where({ source_type: 'project', user_id: user.id }).whereNull('requested_at').whereIn('source_id', ids)
      : none,
    opts.view === 'withAccess' && user && groupIds.length
      ? db('members').where({ source_type: 'group', user_id: user.id }).whereNull('requested_at').whereIn('source_id', groupIds)
      : none,
    full
      ? db('issues').select('project_id').count({ n: '*' }).whereIn('project_id', ids).where({ state: 'opened', confidential: false }).groupBy('project_id')
      : none,
  ]);
  const forkedFrom = await withNamespaces(db, forkedFromRows as ProjectRow[]);
  return {
    forks: new Map((forkRows as { forked_from_id: number; n: number | string }[]).map((r) => [r.forked_from_id, Number(r.n)])),
    owners: new Map((owners as UserRow[]).map((u) => [u.id, u])),
    links: new Map(
      [...groupBy(links as { project_id: number; group_id: number; group_name: string; group_access_level: number }[], (l) => l.project_id)].map(
        ([k, v]) => [k, v.map(({ group_id, group_name, group_access_level }) => ({ group_id, group_name, group_access_level }))],
      ),
    ),
    stats: new Map((stats as Record<string, number>[]).map((s) => [s.project_id, s])),
    attributes: new Map(
      [...groupBy(attributes as { subject_id: number; key: string; value: string }[], (a) => a.subject_id)].map(([k, v]) => [
        k,
        v.map(({ key, value }) => ({ key, value })),
      ]),
    ),
    forkedFrom: new Map(forkedFrom.map((p) => [p.id, p])),
    projectMembers: new Map((projectMembers as MemberRow[]).map((m) => [m.source_id, m])),
    groupMembers: new Map((groupMembers as MemberRow[]).map((m) => [m.source_id, m])),
    openIssues: new Map((openIssueRows as { project_id: number; n: number | string }[]).map((r) => [r.project_id, Number(r.n)])),
  };
}

function access(member: MemberRow | undefined) {
  return member ? { access_level: member.access_level, notification_level: GLOBAL_NOTIFICATION_LEVEL } : null;
}

function statistics(s: Record<string, number> | undefined) {
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

/** Renders projects in the requested view; the order of `projects` is kept. */
export async function presentProjects(
  deps: Deps,
  user: UserRow | null,
  projects: ProjectWithNamespace[],
  opts: PresentOptions = {},
): Promise<Record<string, unknown>[]> {
  const view: ProjectView = opts.view ?? (user ? 'withAccess' : 'basic');
  const full = view !== 'basic';
  const o = { ...opts, view };
  const batch = await loadBatch(deps.db, user, projects, o, full);
  return projects.map((p) => {
    const basic: Record<string, unknown> = basicDetails(deps, p, batch.forks.get(p.id) ?? 0);
    if (o.customAttributes) basic.custom_attributes = batch.attributes.get(p.id) ?? [];
    if (!full) return basic;
    const owner = p.namespace.kind === 'user' ? batch.owners.get(p.namespace.owner_id!) : undefined;
    const forkedFrom = p.forked_from_id ? batch.forkedFrom.get(p.forked_from_id) : undefined;
    const out: Record<string, unknown> = {
      ...basic,
      _links: {
        self: deps.urls.apiProject(p.id),
        ...(p.issues_enabled ? { issues: deps.urls.apiProject(p.id, '/issues') } : {}),
        ...(p.merge_requests_enabled ? { merge_requests: deps.urls.apiProject(p.id, '/merge_requests') } : {}),
        repo_branches: deps.urls.apiProject(p.id, '/repository/branches'),
        labels: deps.urls.apiProject(p.id, '/labels'),
        events: deps.urls.apiProject(p.id, '/events'),
        members: deps.urls.apiProject(p.id, '/members'),
      },
      archived: !!p.archived,
      visibility: visibilityName(p.visibility_level),
      ...(owner ? { owner: { ...userBasic(owner, deps.urls), created_at: owner.created_at } } : {}),
      resolve_outdated_diff_discussions: !!p.resolve_outdated_diff_discussions,
      container_registry_enabled: !!p.container_registry_enabled,
      issues_enabled: !!p.issues_enabled,
      merge_requests_enabled: !!p.merge_requests_enabled,
      wiki_enabled: !!p.wiki_enabled,
      jobs_enabled: !!p.jobs_enabled,
      snippets_enabled: !!p.snippets_enabled,
      shared_runners_enabled: !!p.shared_runners_enabled,
      lfs_enabled: !!p.lfs_enabled,
      creator_id: p.creator_id,
      namespace: {
        id: p.namespace.id,
        name: p.namespace.name,
        path: p.namespace.path,
        kind: p.namespace.kind,
        full_path: p.namespace.full_path,
        parent_id: p.namespace.parent_id,
      },
      ...(forkedFrom ? { forked_from_project: basicDetails(deps, forkedFrom, 0) } : {}),
      import_status: p.import_status,
      ...(o.canAdmin ? { import_error: p.import_error } : {}),
        // Confidential issues are not counted, so the number exposes nothing.
      ...(p.issues_enabled ? { open_issues_count: batch.openIssues.get(p.id) ?? 0 } : {}),
      ...(o.canAdmin ? { runners_token: p.runners_token } : {}),
      public_jobs: !!p.public_jobs,
      ci_config_path: p.ci_config_path,
      shared_with_groups: batch.links.get(p.id) ?? [],
      only_allow_merge_if_pipeline_succeeds: !!p.only_allow_merge_if_pipeline_succeeds,
      request_access_enabled: !!p.request_access_enabled,
      only_allow_merge_if_all_discussions_are_resolved: !!p.only_allow_merge_if_all_discussions_are_resolved,
      printing_merge_request_link_enabled: !!p.printing_merge_request_link_enabled,
      merge_method: p.merge_method,
    };
    if (o.statistics) out.statistics = statistics(batch.stats.get(p.id));
    if (view === 'withAccess') {
      out.permissions = {
        project_access: access(batch.projectMembers.get(p.id)),
        group_access: p.namespace.kind === 'group' ? access(batch.groupMembers.get(p.namespace_id)) : null,
      };
    }
    return out;
  });
}

export async function presentProject(deps: Deps, user: UserRow | null, project: ProjectWithNamespace, opts: PresentOptions = {}) {
  const [one] = await presentProjects(deps, user, [project], opts);
  return one;
}
