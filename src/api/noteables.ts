// Resolving `/projects/:id/{issues|merge_requests}/:iid` to the target that notes, award emoji,
// subscriptions and time tracking hang off (and `/projects/:id/snippets/:id` to the project
// snippet that notes and award emoji also hang off: findNoted, NOTED_KINDS), with what the
// user may do with it. Handlers call
// it after the route table loaded the project (`req.loaded`); its answers come from policy's
// `can()` on the issue or merge request subject it builds (kept on the noteable for further
// questions: create_note, award_emoji, admin_note through noteSubject). One place, so that
// the four route families agree on what exists and what is readable; each family then
// answers GitLab's own status and message for a missing or unreadable target.
import type { Deps } from '../deps.js';
import type { LoadedProject } from './core/loaders.js';
import { assigneeIdsOf, findIssue } from '../finders/issues.js';
import type { IssueRow, MergeRequestRow, NoteableType } from '../store/issuable_rows.js';
import { findProjectSnippet } from '../finders/snippets.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import { can, type IssueSubject, type MergeRequestSubject, type NoteSubject, type ProjectSnippetSubject } from '../policy/can.js';
import type { NoteFacts } from '../policy/notes.js';
import { notFound, recordNotFound } from '../http/errors.js';

/** The path segment of the two noteable kinds. */
export type NoteableKind = 'issues' | 'merge_requests';
export const NOTEABLE_KINDS: readonly NoteableKind[] = ['issues', 'merge_requests'];

/** What notes and award emoji hang off: the two issuables and project snippets (by id). */
export type NotedKind = NoteableKind | 'snippets';
export const NOTED_KINDS: readonly NotedKind[] = [...NOTEABLE_KINDS, 'snippets'];

/** GitLab's `<kind>_iid` parameter name (issue_iid, merge_request_iid; snippets go by `snippet_id`). */
export function iidParamName(kind: NotedKind): 'issue_iid' | 'merge_request_iid' | 'snippet_id' {
  return kind === 'issues' ? 'issue_iid' : kind === 'merge_requests' ? 'merge_request_iid' : 'snippet_id';
}

/** What notes and award emoji need of the object they hang off (an issuable or a project snippet). */
export interface NotedObject {
  kind: NotedKind;
  type: NoteableType | 'Snippet';
  id: number;
  /** The notes' `noteable_iid`: null for a snippet, which has none. */
  iid: number | null;
  projectId: number;
  authorId: number | null;
  discussionLocked: boolean;
  /** The policy subject: `can(user, noteable.subject, 'create_note')`. */
  subject: IssueSubject | MergeRequestSubject | ProjectSnippetSubject;
  /** The user may read it (read_issue / read_merge_request / read_project_snippet). */
  readable: boolean;
}

export interface Noteable extends NotedObject {
  kind: NoteableKind;
  type: NoteableType;
  iid: number;
  assigneeIds: number[];
  title: string;
  description: string | null;
  updatedAt: string;
  timeEstimate: number;
  totalTimeSpent: number;
  subject: IssueSubject | MergeRequestSubject;
  /** The user may edit it (update_issue / update_merge_request). */
  updatable: boolean;
  issue?: IssueRow;
  mergeRequest?: MergeRequestRow;
}

/** An issue of the loaded project as a policy subject (its assignees loaded). */
export async function issueSubject(deps: Deps, loaded: LoadedProject, issue: IssueRow): Promise<IssueSubject> {
  const assigneeIds = await assigneeIdsOf(deps.db, issue.id);
  return { kind: 'issue', project: loaded.project, access: loaded.access, issue: { ...issue, assigneeIds } };
}

/** A merge request of the loaded project (its target) as a policy subject. */
export function mergeRequestSubject(loaded: LoadedProject, mr: MergeRequestRow): MergeRequestSubject {
  return { kind: 'merge_request', project: loaded.project, access: loaded.access, mergeRequest: mr };
}

/** A note of the noteable as a policy subject, with what the noteable's policy said. */
export function noteSubject(noteable: NotedObject, note: NoteFacts): NoteSubject {
  const { project, access } = noteable.subject;
  return {
    kind: 'note',
    project,
    access,
    noteable: { readable: noteable.readable, discussionLocked: noteable.discussionLocked, authorId: noteable.authorId },
    note,
  };
}

/** The noteable of the loaded project with this iid, as its user sees it; undefined when there is none. */
export async function findNoteable(deps: Deps, loaded: LoadedProject, kind: NoteableKind, iid: number): Promise<Noteable | undefined> {
  const user = loaded.user;
  if (kind === 'issues') {
    const issue = await findIssue(deps.db, loaded.project.id, iid);
    if (!issue) return undefined;
    const subject = await issueSubject(deps, loaded, issue);
    return {
      kind,
      type: 'Issue',
      id: issue.id,
      iid: issue.iid,
      projectId: issue.project_id,
      authorId: issue.author_id,
      assigneeIds: subject.issue.assigneeIds,
      title: issue.title,
      description: issue.description,
      discussionLocked: !!issue.discussion_locked,
      updatedAt: issue.updated_at,
      timeEstimate: issue.time_estimate,
      totalTimeSpent: issue.total_time_spent,
      subject,
      readable: can(user, subject, 'read_issue'),
      updatable: can(user, subject, 'update_issue'),
      issue,
    };
  }
  const mr = await findMergeRequest(deps.db, loaded.project.id, iid);
  if (!mr) return undefined;
  const subject = mergeRequestSubject(loaded, mr);
  return {
    kind,
    type: 'MergeRequest',
    id: mr.id,
    iid: mr.iid,
    projectId: mr.target_project_id,
    authorId: mr.author_id,
    assigneeIds: mr.assignee_id === null ? [] : [mr.assignee_id],
    title: mr.title,
    description: mr.description,
    discussionLocked: !!mr.discussion_locked,
    updatedAt: mr.updated_at,
    timeEstimate: mr.time_estimate,
    totalTimeSpent: mr.total_time_spent,
    subject,
    readable: can(user, subject, 'read_merge_request'),
    updatable: can(user, subject, 'update_merge_request'),
    mergeRequest: mr,
  };
}

/** A snippet of the loaded project (any visibility: the snippet policy says what the user may do). */
async function findSnippetNoteable(deps: Deps, loaded: LoadedProject, id: number): Promise<NotedObject | undefined> {
  const snippet = await findProjectSnippet(deps.db, loaded.project.id, id);
  if (!snippet) return undefined;
  const subject: ProjectSnippetSubject = { kind: 'project_snippet', project: loaded.project, access: loaded.access, snippet };
  return {
    kind: 'snippets',
    type: 'Snippet',
    id: snippet.id,
    iid: null,
    projectId: loaded.project.id,
    authorId: snippet.author_id,
    discussionLocked: false,
    subject,
    readable: can(loaded.user, subject, 'read_project_snippet'),
  };
}

/** The issue, merge request (by iid) or project snippet (by id) of the loaded project; undefined when there is none. */
export async function findNoted(deps: Deps, loaded: LoadedProject, kind: NotedKind, id: number): Promise<NotedObject | undefined> {
  return kind === 'snippets' ? findSnippetNoteable(deps, loaded, id) : findNoteable(deps, loaded, kind, id);
}

/** A model's errors as Ruby prints the hash (`{:name=>["is invalid"]}`): some GitLab messages embed it. */
export function rubyErrors(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${entries.join(', ')}}`;
}

/** The noteable of the route in the loaded project, readable, or GitLab's 404s. */
export async function readableNoteable(deps: Deps, loaded: LoadedProject, kind: NoteableKind, iid: number): Promise<Noteable>;
export async function readableNoteable(deps: Deps, loaded: LoadedProject, kind: NotedKind, iid: number): Promise<NotedObject>;
export async function readableNoteable(deps: Deps, loaded: LoadedProject, kind: NotedKind, iid: number): Promise<NotedObject> {
  const noteable = await findNoted(deps, loaded, kind, iid);
  if (!noteable) throw recordNotFound();
  if (!noteable.readable) {
    // The issue finder hides what the user may not read; the merge request finder only
    // what is disabled, and find_noteable's own check names the collection (as it does for
    // a snippet: `404 snippets Not Found`).
    if (kind === 'snippets' || (kind === 'merge_requests' && loaded.project.merge_requests_enabled)) throw notFound(kind);
    throw recordNotFound();
  }
  return noteable;
}
