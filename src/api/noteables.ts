// Resolving `/projects/:id/{issues|merge_requests}/:iid` to the target that notes, award emoji,
// subscriptions and time tracking hang off, with what the user may do with it. One place, so
// that the four route families agree on what exists and what is readable; each route family
// then answers GitLab's own status and message for a missing or unreadable target.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { LoadedProject } from './loaders.js';
import { p, parseValues } from '../http/params.js';
import { assigneeIdsOf, findIssue, type IssueRow } from '../finders/issues.js';
import { findMergeRequest, type MergeRequestRow } from '../finders/merge_requests.js';
import { canReadIssue, canUpdateIssue } from '../policy/issues.js';
import { canReadMergeRequest, canUpdateMergeRequest } from '../policy/merge_requests.js';
import type { NoteableType } from '../services/notes.js';

/** The path segment of the two noteable kinds. */
export type NoteableKind = 'issues' | 'merge_requests';
export const NOTEABLE_KINDS: readonly NoteableKind[] = ['issues', 'merge_requests'];

/** GitLab's `<kind>_iid` parameter name (issue_iid, merge_request_iid). */
export function iidParamName(kind: NoteableKind): string {
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
  /** The user may read it (read_issue / read_merge_request). */
  readable: boolean;
  /** The user may edit it (update_issue / update_merge_request). */
  updatable: boolean;
  issue?: IssueRow;
  mergeRequest?: MergeRequestRow;
}

/** An integer route parameter, or Grape's 400 "<name> is invalid". */
export function intParam(ctx: Koa.Context, param: string, name = param): number {
  return parseValues({ [name]: ctx.params[param] }, { [name]: p.integer().required() })[name] as number;
}

/** The noteable of the project with this iid, as this user sees it; undefined when there is none. */
export async function findNoteable(deps: Deps, loaded: LoadedProject, user: UserRow, kind: NoteableKind, iid: number): Promise<Noteable | undefined> {
  const { project, access } = loaded;
  if (kind === 'issues') {
    const issue = await findIssue(deps.db, project.id, iid);
    if (!issue) return undefined;
    const facts = { ...issue, assigneeIds: await assigneeIdsOf(deps.db, issue.id) };
    return {
      kind,
      type: 'Issue',
      id: issue.id,
      iid: issue.iid,
      projectId: issue.project_id,
      authorId: issue.author_id,
      assigneeIds: facts.assigneeIds,
      title: issue.title,
      description: issue.description,
      discussionLocked: !!issue.discussion_locked,
      updatedAt: issue.updated_at,
      timeEstimate: issue.time_estimate,
      totalTimeSpent: issue.total_time_spent,
      readable: canReadIssue(user, project, access, facts),
      updatable: canUpdateIssue(user, project, access, facts),
      issue,
    };
  }
  const mr = await findMergeRequest(deps.db, project.id, iid);
  if (!mr) return undefined;
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
    readable: canReadMergeRequest(user, project, access, mr),
    updatable: canUpdateMergeRequest(user, project, access, mr),
    mergeRequest: mr,
  };
}

/** A model's errors as Ruby prints the hash (`{:name=>["is invalid"]}`): some GitLab messages embed it. */
export function rubyErrors(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${entries.join(', ')}}`;
}
