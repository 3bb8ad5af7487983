// project.json of a GitLab 10.8 export (Gitlab::ImportExport::ProjectTreeSaver with
// lib/gitlab/import_export/import_export.yml): the project's attributes, then its relations
// under GitLab's names and nesting — labels, milestones, issues (notes with their author's
// name, label_links with the label, issue_assignees, timelogs), snippets, releases,
// project_members (with the user's id, email and username, which the importer maps authors
// by), merge_requests (notes, label_links, merge_request_diff), protected_branches with
// their access levels, project_feature, pipelines (import_export/export_pipelines.ts). Relations Wharf does not have (hooks,
// services, …) are written empty, as GitLab wrote them for a project without any. One query
// per relation, grouped in memory.
//
// Award emoji: 10.8's import_export.yml has them under snippets only; Wharf also writes them
// under issues, merge requests and notes, as later GitLab versions do. GitLab 10.8's importer
// drops keys that are not attributes of the model (AttributeCleaner), so it reads such an
// archive as before, and Wharf's importer restores them.
import type { Knex } from 'knex';
import type { Conn } from '../../store/db.js';
import { flag, type ProjectWithNamespace } from '../../store/rows.js';
import { pipelinesTree } from './export_pipelines.js';

type Row = Record<string, any>;

/** GitLab's project_feature levels: 20 enabled, 0 disabled. */
const feature = (v: unknown): number => (flag(v) ? 20 : 0);

function groupBy(rows: Row[], key: string): Map<unknown, Row[]> {
  const m = new Map<unknown, Row[]>();
  for (const r of rows) {
    const list = m.get(r[key]);
    if (list) list.push(r);
    else m.set(r[key], [r]);
  }
  return m;
}

function labelJson(l: Row, projectId: number): Row {
  return {
    id: l.id,
    title: l.title,
    color: l.color,
    project_id: projectId,
    created_at: l.created_at,
    updated_at: l.updated_at,
    template: false,
    description: l.description,
    group_id: null,
    type: 'ProjectLabel',
    priorities: l.priority === null || l.priority === undefined ? [] : [{ project_id: projectId, priority: l.priority }],
  };
}

function milestoneJson(m: Row): Row {
  return {
    id: m.id,
    title: m.title,
    project_id: m.project_id,
    description: m.description,
    due_date: m.due_date,
    created_at: m.created_at,
    updated_at: m.updated_at,
    state: m.state,
    iid: m.iid,
    start_date: m.start_date,
    group_id: null,
    events: [],
  };
}

export async function projectTree(db: Conn, project: ProjectWithNamespace, description: string | null): Promise<Row> {
  const pid = project.id;
  const awardsOf = (type: string, ids: Knex.QueryBuilder) => db('award_emoji').where({ awardable_type: type }).whereIn('awardable_id', ids).orderBy('id');
  const [labels, milestones, issues, mrs, notes, linkRows, assignees, members, branches, snippets, ...awardRows] = await Promise.all([
    db('labels').where({ project_id: pid }).orderBy('id'),
    db('milestones').where({ project_id: pid }).orderBy('id'),
    db('issues').where({ project_id: pid }).orderBy('id'),
    db('merge_requests').where({ target_project_id: pid }).orderBy('id'),
    db('notes').leftJoin('users', 'users.id', 'notes.author_id').where({ 'notes.project_id': pid }).orderBy('notes.id').select('notes.*', 'users.name as author_name'),
    db('label_links')
      .join('labels', 'labels.id', 'label_links.label_id')
      .where({ 'labels.project_id': pid })
      .select('label_links.target_type', 'label_links.target_id', 'label_links.label_id'),
    db('issue_assignees').join('issues', 'issues.id', 'issue_assignees.issue_id').where({ 'issues.project_id': pid }).select('issue_assignees.issue_id', 'issue_assignees.user_id'),
    db('members')
      .join('users', 'users.id', 'members.user_id')
      .where({ source_type: 'project', source_id: pid })
      .whereNull('members.requested_at')
      .orderBy('members.id')
      .select('members.*', 'users.email', 'users.username'),
    db('protected_branches').where({ project_id: pid }).orderBy('id'),
    db('snippets').where({ project_id: pid, type: 'ProjectSnippet' }).orderBy('id'),
    awardsOf('Issue', db('issues').where({ project_id: pid }).select('id')),
    awardsOf('MergeRequest', db('merge_requests').where({ target_project_id: pid }).select('id')),
    awardsOf('Note', db('notes').where({ project_id: pid }).select('id')),
    awardsOf('Snippet', db('snippets').where({ project_id: pid }).select('id')),
  ]);
  const awards = new Map<string, Row[]>();
  for (const a of awardRows.flat() as Row[]) {
    const key = `${a.awardable_type}:${a.awardable_id}`;
    awards.set(key, [...(awards.get(key) ?? []), a]);
  }
  const awardsFor = (type: string, id: number) =>
    (awards.get(`${type}:${id}`) ?? []).map((a) => ({
      id: a.id,
      name: a.name,
      user_id: a.user_id,
      awardable_type: type,
      awardable_id: id,
      created_at: a.created_at,
      updated_at: a.updated_at,
    }));
  const labelById = new Map(labels.map((l: Row) => [l.id, l]));
  const milestoneById = new Map(milestones.map((m: Row) => [m.id, m]));
  const notesOf = groupBy(notes, 'noteable_id');
  const linksOf = groupBy(linkRows, 'target_id');
  const assigneesOf = groupBy(assignees, 'issue_id');
  const noteJson = (n: Row, type: string) => ({
    id: n.id,
    note: n.body,
    noteable_type: type,
    author_id: n.author_id,
    created_at: n.created_at,
    updated_at: n.updated_at,
    project_id: pid,
    attachment: { url: null },
    line_code: null,
    commit_id: null,
    noteable_id: n.noteable_id,
    system: flag(n.system),
    st_diff: null,
    updated_by_id: n.updated_by_id ?? null,
    type: null,
    position: null,
    original_position: null,
    resolved_at: null,
    resolved_by_id: null,
    discussion_id: null,
    change_position: null,
    resolved_by_push: null,
    author: { name: n.author_name ?? 'Ghost User' },
    events: [],
    award_emoji: awardsFor('Note', n.id),
  });
  const notesFor = (id: number, type: string) =>
    (notesOf.get(id) ?? []).filter((n) => String(n.noteable_type).toLowerCase().replace('_', '') === type.toLowerCase()).map((n) => noteJson(n, type));
  const linksFor = (id: number, type: string) =>
    (linksOf.get(id) ?? [])
      .filter((l) => String(l.target_type).toLowerCase().replace('_', '') === type.toLowerCase())
      .map((l) => ({ target_id: id, label_id: l.label_id, target_type: type, label: labelJson(labelById.get(l.label_id) as Row, pid) }));
  const milestoneFor = (id: number | null) => (id !== null && milestoneById.has(id) ? { milestone: milestoneJson(milestoneById.get(id) as Row) } : {});

  return {
    description: description ?? project.description,
    visibility_level: project.visibility_level,
    archived: flag(project.archived),
    shared_runners_enabled: flag(project.shared_runners_enabled),
    public_builds: flag(project.public_jobs),
    container_registry_enabled: flag(project.container_registry_enabled),
    only_allow_merge_if_pipeline_succeeds: flag(project.only_allow_merge_if_pipeline_succeeds),
    request_access_enabled: flag(project.request_access_enabled),
    only_allow_merge_if_all_discussions_are_resolved: flag(project.only_allow_merge_if_all_discussions_are_resolved),
    printing_merge_request_link_enabled: flag(project.printing_merge_request_link_enabled),
    ci_config_path: project.ci_config_path,
    resolve_outdated_diff_discussions: flag(project.resolve_outdated_diff_discussions),
    merge_requests_rebase_enabled: project.merge_method === 'rebase_merge',
    merge_requests_ff_only_enabled: project.merge_method === 'ff',
    labels: labels.map((l: Row) => labelJson(l, pid)),
    milestones: milestones.map(milestoneJson),
    issues: issues.map((i: Row) => ({
      id: i.id,
      title: i.title,
      author_id: i.author_id,
      project_id: pid,
      created_at: i.created_at,
      updated_at: i.updated_at,
      description: i.description,
      state: i.state,
      iid: i.iid,
      updated_by_id: null,
      confidential: flag(i.confidential),
      due_date: i.due_date,
      moved_to_id: null,
      time_estimate: i.time_estimate ?? 0,
      relative_position: null,
      discussion_locked: i.discussion_locked === null ? null : flag(i.discussion_locked),
      closed_at: i.closed_at,
      closed_by_id: i.closed_by_id ?? null,
      milestone_id: i.milestone_id,
      events: [],
      timelogs: i.total_time_spent ? [{ time_spent: i.total_time_spent, user_id: i.author_id, created_at: i.updated_at, updated_at: i.updated_at }] : [],
      notes: notesFor(i.id, 'Issue'),
      award_emoji: awardsFor('Issue', i.id),
      label_links: linksFor(i.id, 'Issue'),
      ...milestoneFor(i.milestone_id),
      issue_assignees: (assigneesOf.get(i.id) ?? []).map((a) => ({ user_id: a.user_id, issue_id: i.id })),
    })),
    snippets: snippets.map((sn: Row) => ({
      id: sn.id,
      title: sn.title,
      content: sn.content,
      author_id: sn.author_id,
      project_id: pid,
      created_at: sn.created_at,
      updated_at: sn.updated_at,
      file_name: sn.file_name,
      type: 'ProjectSnippet',
      visibility_level: sn.visibility_level,
      description: sn.description,
      award_emoji: awardsFor('Snippet', sn.id),
      notes: notesFor(sn.id, 'Snippet'),
    })),
    releases: [],
    project_members: members.map((m: Row) => ({
      id: m.id,
      access_level: m.access_level,
      source_id: pid,
      source_type: 'Project',
      user_id: m.user_id,
      notification_level: 3,
      created_at: m.created_at,
      updated_at: m.updated_at,
      created_by_id: m.created_by_id,
      invite_email: null,
      invite_token: null,
      invite_accepted_at: null,
      requested_at: null,
      expires_at: m.expires_at,
      user: { id: m.user_id, email: m.email, username: m.username },
    })),
    merge_requests: mrs.map((m: Row) => ({
      id: m.id,
      target_branch: m.target_branch,
      source_branch: m.source_branch,
      source_project_id: m.source_project_id === pid ? pid : m.source_project_id,
      author_id: m.author_id,
      assignee_id: m.assignee_id,
      title: m.title,
      created_at: m.created_at,
      updated_at: m.updated_at,
      state: m.state,
      merge_status: m.merge_status,
      target_project_id: pid,
      iid: m.iid,
      description: m.description,
      updated_by_id: null,
      merge_error: null,
      merge_params: { force_remove_source_branch: m.force_remove_source_branch === null ? null : flag(m.force_remove_source_branch) },
      merge_when_pipeline_succeeds: flag(m.merge_when_pipeline_succeeds),
      merge_user_id: m.merge_user_id,
      merge_commit_sha: m.merge_commit_sha,
      time_estimate: m.time_estimate ?? 0,
      squash: false,
      discussion_locked: m.discussion_locked === null ? null : flag(m.discussion_locked),
      milestone_id: m.milestone_id,
      merged_at: m.merged_at ?? null,
      merged_by_id: m.merged_by_id ?? null,
      allow_maintainer_to_push: flag(m.allow_maintainer_to_push),
      should_remove_source_branch: m.should_remove_source_branch === null ? null : flag(m.should_remove_source_branch),
      diff_head_sha: m.head_sha,
      source_branch_sha: m.head_sha,
      target_branch_sha: m.base_sha,
      notes: notesFor(m.id, 'MergeRequest'),
      award_emoji: awardsFor('MergeRequest', m.id),
      merge_request_diff: {
        state: 'collected',
        base_commit_sha: m.base_sha,
        head_commit_sha: m.head_sha,
        start_commit_sha: m.start_sha,
        merge_request_diff_commits: [],
        merge_request_diff_files: [],
      },
      events: [],
      timelogs: [],
      label_links: linksFor(m.id, 'MergeRequest'),
      ...milestoneFor(m.milestone_id),
    })),
    pipelines: await pipelinesTree(db, pid),
    triggers: [],
    pipeline_schedules: [],
    services: [],
    hooks: [],
    protected_branches: branches.map((b: Row) => ({
      id: b.id,
      project_id: pid,
      name: b.name,
      created_at: b.created_at,
      updated_at: b.updated_at,
      merge_access_levels: [{ access_level: b.merge_access_level, created_at: b.created_at, updated_at: b.updated_at }],
      push_access_levels: [{ access_level: b.push_access_level, created_at: b.created_at, updated_at: b.updated_at }],
    })),
    protected_tags: [],
    project_feature: {
      project_id: pid,
      merge_requests_access_level: feature(project.merge_requests_enabled),
      issues_access_level: feature(project.issues_enabled),
      wiki_access_level: feature(project.wiki_enabled),
      snippets_access_level: feature(project.snippets_enabled),
      builds_access_level: feature(project.jobs_enabled),
      repository_access_level: 20,
      created_at: project.created_at,
      updated_at: project.updated_at,
    },
    custom_attributes: [],
  };
}
