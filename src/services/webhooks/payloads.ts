// The JSON a webhook receives, in GitLab 10.8's shapes (Gitlab::DataBuilder::Push,
// Gitlab::HookData::IssuableBuilder / IssueBuilder / MergeRequestBuilder,
// Gitlab::DataBuilder::Note, Project#hook_attrs, User#hook_attrs, Label#hook_attrs,
// Commit#hook_attrs; pipelines and jobs in webhooks/ci_payloads.ts), built when the delivery is sent from the snapshot queued with the change
// (webhooks/triggers.ts): the rows are the change's; URLs and the user's and project's attributes
// are added here.
import type { Deps } from '../../deps.js';
import { flag, type ProjectWithNamespace, type UserRow } from '../../store/rows.js';
import type { IssueRow, LabelRow, MergeRequestRow, NoteRow } from '../../store/issuable_rows.js';
import { fullPathOf } from '../../finders/projects.js';
import { headPipelineOf } from '../../finders/merge_request_pipelines.js';
import { humanTime } from '../../store/durations.js';
import type { Changes, HookEvent } from './triggers.js';
import { pipelineHookBody, jobHookBody } from './ci_payloads.js';
import { commitHookAttrs, projectHookAttrs, projectRow, repositoryAttrs, userHookAttrs, type Json } from './attrs.js';
import { findUserById } from '../../finders/users.js';

function labelHookAttrs(l: LabelRow): Json {
  return {
    id: l.id,
    title: l.title,
    color: l.color,
    project_id: l.project_id,
    created_at: l.created_at,
    updated_at: l.updated_at,
    template: false,
    description: l.description,
    type: 'ProjectLabel',
    group_id: null,
  };
}

function issueAttrs(deps: Deps, project: ProjectWithNamespace, issue: IssueRow, assigneeIds: number[]): Json {
  return {
    assignee_id: assigneeIds[0] ?? null,
    author_id: issue.author_id,
    closed_at: issue.closed_at,
    confidential: flag(issue.confidential),
    created_at: issue.created_at,
    description: issue.description,
    due_date: issue.due_date,
    id: issue.id,
    iid: issue.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    milestone_id: issue.milestone_id,
    moved_to_id: null,
    project_id: issue.project_id,
    relative_position: null,
    state: issue.state,
    time_estimate: issue.time_estimate ?? 0,
    title: issue.title,
    updated_at: issue.updated_at,
    updated_by_id: null,
    url: `${deps.urls.web(fullPathOf(project))}/issues/${issue.iid}`,
    total_time_spent: issue.total_time_spent ?? 0,
    human_total_time_spent: humanTime(issue.total_time_spent ?? 0),
    human_time_estimate: humanTime(issue.time_estimate ?? 0),
    assignee_ids: assigneeIds,
  };
}

async function mergeRequestAttrs(deps: Deps, target: ProjectWithNamespace, mr: MergeRequestRow): Promise<Json> {
  const source = mr.source_project_id === null ? null : await projectRow(deps, mr.source_project_id);
  const targetAttrs = projectHookAttrs(deps, target);
  // A new merge request's head is read after its transaction: take the stored one then.
  const head = mr.head_sha ?? (await deps.db('merge_requests').where({ id: mr.id }).first('head_sha'))?.head_sha ?? null;
  const lastCommit = head ? await commitHookAttrs(deps, source ?? target, head) : null;
  return {
    assignee_id: mr.assignee_id,
    author_id: mr.author_id,
    created_at: mr.created_at,
    description: mr.description,
    head_pipeline_id: (await headPipelineOf(deps.db, { ...mr, head_sha: head }))?.id ?? null,
    id: mr.id,
    iid: mr.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    merge_commit_sha: mr.merge_commit_sha,
    merge_error: null,
    merge_params: {},
    merge_status: mr.merge_status,
    merge_user_id: mr.merge_user_id,
    merge_when_pipeline_succeeds: flag(mr.merge_when_pipeline_succeeds),
    milestone_id: mr.milestone_id,
    source_branch: mr.source_branch,
    source_project_id: mr.source_project_id,
    state: mr.state,
    target_branch: mr.target_branch,
    target_project_id: mr.target_project_id,
    time_estimate: mr.time_estimate ?? 0,
    title: mr.title,
    updated_at: mr.updated_at,
    updated_by_id: null,
    url: `${deps.urls.web(fullPathOf(target))}/merge_requests/${mr.iid}`,
    source: source ? projectHookAttrs(deps, source) : null,
    target: targetAttrs,
    last_commit: lastCommit,
    work_in_progress: workInProgress(mr.title),
    total_time_spent: mr.total_time_spent ?? 0,
    human_total_time_spent: humanTime(mr.total_time_spent ?? 0),
    human_time_estimate: humanTime(mr.time_estimate ?? 0),
  };
}

/** MergeRequest#work_in_progress?: a title starting with "[WIP]", "WIP:" or "WIP ". */
function workInProgress(title: string): boolean {
  const t = title.trimStart().toLowerCase();
  return t.startsWith('[wip]') || t.startsWith('wip:') || t.startsWith('wip ') || t === 'wip';
}

function changesJson(changes: Changes, present: (v: unknown) => unknown = (v) => v): Json {
  const out: Json = {};
  for (const [key, [previous, current]] of Object.entries(changes)) {
    out[key] =
      key === 'labels'
        ? { previous: (previous as LabelRow[]).map(labelHookAttrs), current: (current as LabelRow[]).map(labelHookAttrs) }
        : { previous: present(previous), current: present(current) };
  }
  return out;
}

/** A DiffNote's stored position as an object (GitLab's Position#to_h); null otherwise. */
function positionJson(position: string | null | undefined): Json | null {
  if (!position) return null;
  try {
    return JSON.parse(position) as Json;
  } catch {
    return null;
  }
}

function noteAttrs(note: NoteRow, url: string): Json {
  return {
    id: note.id,
    note: note.body,
    noteable_type: note.noteable_type,
    author_id: note.author_id,
    created_at: note.created_at,
    updated_at: note.updated_at,
    project_id: note.project_id,
    attachment: null,
    line_code: note.line_code ?? null,
    commit_id: note.commit_id ?? null,
    noteable_id: note.noteable_type === 'Commit' ? null : note.noteable_id,
    system: flag(note.system),
    st_diff: null,
    updated_by_id: note.updated_by_id,
    type: note.type ?? null,
    position: positionJson(note.position),
    original_position: positionJson(note.position),
    resolved_at: note.resolved_at ?? null,
    resolved_by_id: note.resolved_by_id ?? null,
    discussion_id: note.discussion_id ?? null,
    change_position: null,
    resolved_by_push: null,
    url,
  };
}

/** The body of a delivery; null when what it is about is gone (nothing to send). */
export async function buildHookBody(deps: Deps, event: HookEvent): Promise<Json | null> {
  if (event.kind === 'data') return event.data;
  const project = await projectRow(deps, event.projectId);
  if (!project) return null;
  if (event.kind === 'pipeline') return pipelineHookBody(deps, project, event);
  if (event.kind === 'build') return jobHookBody(deps, project, event);
  const user: UserRow | undefined = await findUserById(deps.db, event.userId);
  const projectAttrs = projectHookAttrs(deps, project);
  const web = deps.urls.web(fullPathOf(project));
  switch (event.kind) {
    case 'push':
      return {
        object_kind: event.tag ? 'tag_push' : 'push',
        event_name: event.tag ? 'tag_push' : 'push',
        before: event.before,
        after: event.after,
        ref: event.ref,
        checkout_sha: event.checkoutSha,
        message: event.message ?? null,
        user_id: event.userId,
        user_name: user?.name ?? null,
        user_username: user?.username ?? null,
        user_email: user?.email ?? null,
        user_avatar: user?.avatar_url ?? null,
        project_id: project.id,
        project: projectAttrs,
        commits: event.commits.map((c) => ({ ...c, url: `${web}/commit/${c.id}` })),
        total_commits_count: event.totalCommits,
        repository: {
          ...repositoryAttrs(projectAttrs),
          git_http_url: projectAttrs.git_http_url,
          git_ssh_url: projectAttrs.git_ssh_url,
          visibility_level: project.visibility_level,
        },
      };
    case 'issue': {
      const assignees: UserRow[] = event.assigneeIds.length ? await deps.db('users').whereIn('id', event.assigneeIds).orderBy('id') : [];
      const body: Json = {
        object_kind: 'issue',
        event_type: flag(event.issue.confidential) ? 'confidential_issue' : 'issue',
        user: userHookAttrs(user),
        project: projectAttrs,
        object_attributes: { ...issueAttrs(deps, project, event.issue, event.assigneeIds), action: event.action },
        labels: event.labels.map(labelHookAttrs),
        changes: changesJson(event.changes),
        repository: repositoryAttrs(projectAttrs),
      };
      if (assignees.length) body.assignees = assignees.map((a) => userHookAttrs(a));
      return body;
    }
    case 'merge_request': {
      const mr = event.mergeRequest;
      const assignee: UserRow | undefined = mr.assignee_id === null ? undefined : await findUserById(deps.db, mr.assignee_id);
      const body: Json = {
        object_kind: 'merge_request',
        event_type: 'merge_request',
        user: userHookAttrs(user),
        project: projectAttrs,
        object_attributes: { ...(await mergeRequestAttrs(deps, project, mr)), action: event.action },
        labels: event.labels.map(labelHookAttrs),
        changes: changesJson(event.changes),
        repository: repositoryAttrs(projectAttrs),
      };
      if (assignee) body.assignee = userHookAttrs(assignee);
      return body;
    }
    case 'note': {
      const issue = event.issue;
      const mr = event.mergeRequest;
      const { note } = event;
      const commitId = note.noteable_type === 'Commit' ? note.commit_id : null;
      const snippet = note.noteable_type === 'Snippet' ? await deps.db('snippets').where({ id: note.noteable_id }).first() : undefined;
      const noteableUrl = issue
        ? `${web}/issues/${issue.iid}`
        : mr
          ? `${web}/merge_requests/${mr.iid}`
          : commitId
            ? `${web}/commit/${commitId}`
            : snippet
              ? `${web}/snippets/${snippet.id}`
              : web;
      const body: Json = {
        object_kind: 'note',
        event_type: issue && flag(issue.confidential) ? 'confidential_note' : 'note',
        user: userHookAttrs(user),
        project_id: project.id,
        project: projectAttrs,
        object_attributes: noteAttrs(event.note, `${noteableUrl}#note_${event.note.id}`),
        repository: repositoryAttrs(projectAttrs),
      };
      if (issue) {
        const assigneeIds = (await deps.db('issue_assignees').where({ issue_id: issue.id }).orderBy('user_id').select('user_id')).map((r: { user_id: number }) => r.user_id);
        body.issue = issueAttrs(deps, project, issue, assigneeIds);
      }
      if (mr) body.merge_request = await mergeRequestAttrs(deps, project, mr);
      if (commitId) body.commit = await commitHookAttrs(deps, project, commitId);
      if (snippet) {
        body.snippet = {
          id: snippet.id,
          title: snippet.title,
          content: snippet.content,
          author_id: snippet.author_id,
          project_id: snippet.project_id,
          created_at: snippet.created_at,
          updated_at: snippet.updated_at,
          file_name: snippet.file_name,
          type: 'ProjectSnippet',
          visibility_level: snippet.visibility_level,
        };
      }
      return body;
    }
  }
}
