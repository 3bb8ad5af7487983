// Resolving `/projects/:id/{issues|merge_requests}/:iid` to the target that notes, award emoji,
// subscriptions and time tracking hang off, with what the user may do with it. Handlers call
// it after the route table loaded the project (`req.loaded`); its answers come from policy's
// `can()` on the issue or merge request subject it builds (kept on the noteable for further
// questions: create_note, award_emoji, admin_note through noteSubject). One place, so that
// the four route families agree on what exists and what is readable; each family then
// answers GitLab's own status and message for a missing or unreadable target.
import type { Deps } from '../deps.js';
import type { LoadedProject } from './loaders.js';
import { assigneeIdsOf, findIssue } from '../finders/issues.js';
import type { IssueRow, MergeRequestRow, NoteableType } from '../store/issuable_rows.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import { can, type IssueSubject, type MergeRequestSubject, type NoteSubject } from '../policy/can.js';
import type { NoteFacts } from '../policy/notes.js';
import { notFound, recordNotFound } from '../http/errors.js';

/** The path segment of the two noteable kinds. */
export type NoteableKind = 'issues' | 'merge_requests';
export const NOTEABLE_KINDS: readonly NoteableKind[] = ['issues', 'merge_requests'];

/** GitLab's `<kind>_iid` parameter name (issue_iid, merge_request_iid). */
export function iidParamName(kind: NoteableKind): 'issue_iid' | 'merge_request_iid' {
  return kind === 'issues' ? 'issue_iid' : 'merge_request_iid';
}

export interface Noteable {
  kind: NoteableKind;
  type: NoteableType;
  id: number;
  iid: number;
  projectId: number;
  authorId: number | null;
  assigneeIds: number[];
  title: string;
  description: string | null;
  discussionLocked: boolean;
  updatedAt: string;
  timeEstimate: number;
  totalTimeSpent: number;
  /** The policy subject: `can(user, noteable.subject, 'create_note')`. */
  subject: IssueSubject | MergeRequestSubject;
  /** The user may read it (read_issue / read_merge_request). */
  readable: boolean;
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
export function noteSubject(noteable: Noteable, note: NoteFacts): NoteSubject {
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

/** A model's errors as Ruby prints the hash (`{:name=>["is invalid"]}`): some GitLab messages embed it. */
export function rubyErrors(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${entries.join(', ')}}`;
}

/** The noteable of the route in the loaded project, readable, or GitLab's 404s. */
export async function readableNoteable(deps: Deps, loaded: LoadedProject, kind: NoteableKind, iid: number): Promise<Noteable> {
  const noteable = await findNoteable(deps, loaded, kind, iid);
  if (!noteable) throw recordNotFound();
  if (!noteable.readable) {
    // The issue finder hides what the user may not read; the merge request finder only
    // what is disabled, and find_noteable's own check names the collection.
    if (kind === 'merge_requests' && loaded.project.merge_requests_enabled) throw notFound(kind);
    throw recordNotFound();
  }
  return noteable;
}

