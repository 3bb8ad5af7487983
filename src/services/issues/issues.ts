// Creating, changing and deleting issues (GitLab 10.8's Issues::CreateService, UpdateService,
// Close/ReopenService and IssuableBaseService#filter_params). The caller has checked the
// permissions and passes only what the user may set; this module applies GitLab's quiet
// filtering of the values themselves: a milestone not of the project is unset, only the first
// assignee is kept (CE), unknown labels are created only when `createLabels` is allowed.
import type { Conn, Tx } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { Invalid } from '../../store/domain_errors.js';
import { nextIid } from '../../store/iids.js';
import { now } from '../../store/time.js';
import { findIssue } from '../../finders/issues.js';
import type { IssueRow } from '../../store/issuable_rows.js';
import { applyLabelChange, changesLabels, type LabelChange } from '../issuables/issuable_labels.js';
import { deleteIssuableDependents } from '../issuables/deletion.js';
import { labelsOfIssuable } from '../../finders/issuable_labels.js';
import { announce } from '../notify.js';

const MAX_TITLE = 255;

export interface IssueInput extends LabelChange {
  title?: string;
  description?: string | null;
  confidential?: boolean;
  /** Already cut to those who may read the issues; [] unassigns. */
  assigneeIds?: number[];
  /** null unassigns; an id not of the project unsets too. */
  milestoneId?: number | null;
  /** Comma-separated titles; '' removes every label (add/remove: LabelChange). */
  labels?: string;
  dueDate?: string | null;
  discussionLocked?: boolean | null;
  createdAt?: string;
  updatedAt?: string;
  stateEvent?: 'close' | 'reopen';
}

export interface IssueOptions {
  /** The user may create missing labels (admin_label). */
  createLabels: boolean;
  /** What else the creation writes, in its transaction (the user agent, a follow-up's resolutions). */
  after?: (tx: Tx, issue: IssueRow) => Promise<void>;
}

function titleErrors(title: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (title.trim() === '') errors.title = ["can't be blank"];
  else if (title.length > MAX_TITLE) errors.title = [`is too long (maximum is ${MAX_TITLE} characters)`];
  return errors;
}

async function projectMilestone(tx: Conn, projectId: number, id: number | null): Promise<number | null> {
  if (id === null) return null;
  const row = await tx('milestones').where({ project_id: projectId, id }).first('id');
  return row ? id : null;
}

async function setAssignees(tx: Tx, issueId: number, ids: number[]): Promise<boolean> {
  const current: { user_id: number }[] = await tx('issue_assignees').where({ issue_id: issueId }).select('user_id');
  const before = current.map((r) => r.user_id).sort();
  const after = [...new Set(ids)].sort();
  if (before.length === after.length && before.every((id, i) => id === after[i])) return false;
  await tx('issue_assignees').where({ issue_id: issueId }).delete();
  if (after.length) await tx('issue_assignees').insert(after.map((user_id) => ({ issue_id: issueId, user_id })));
  return true;
}

/** Creates an opened issue with the project's next issue iid, in one transaction. */
export async function createIssue(db: Conn, projectId: number, author: UserRow, input: IssueInput, opts: IssueOptions): Promise<IssueRow> {
  const title = input.title ?? '';
  const errors = titleErrors(title);
  if (Object.keys(errors).length) throw new Invalid(errors);
  return db.transaction(async (tx) => {
    const stamp = input.createdAt ?? now();
    const iid = await nextIid(tx, projectId, 'issues');
    await tx('issues').insert({
      project_id: projectId,
      iid,
      title,
      description: input.description ?? null,
      state: 'opened',
      author_id: author.id,
      confidential: input.confidential ?? false,
      discussion_locked: input.discussionLocked ?? null,
      due_date: input.dueDate ?? null,
      milestone_id: await projectMilestone(tx, projectId, input.milestoneId ?? null),
      created_at: stamp,
      updated_at: stamp,
    });
    const issue = (await findIssue(tx, projectId, iid))!;
    if (input.assigneeIds?.length) await setAssignees(tx, issue.id, input.assigneeIds.slice(0, 1));
    if (changesLabels(input)) await applyLabelChange(tx, 'issue', issue.id, projectId, input, opts.createLabels);
    const target = { type: 'Issue' as const, id: issue.id, projectId };
    await announce(tx, { name: 'issuableOpened', target, actor: author, assigneeIds: input.assigneeIds?.slice(0, 1) ?? [], title, description: issue.description });
    if (opts.after) await opts.after(tx, issue);
    return issue;
  });
}

/** Applies the change; updated_at moves only when something did (or as given). */
export async function updateIssue(db: Conn, issue: IssueRow, user: UserRow, input: IssueInput, opts: IssueOptions): Promise<IssueRow> {
  if (input.title !== undefined) {
    const errors = titleErrors(input.title);
    if (Object.keys(errors).length) throw new Invalid(errors);
  }
  return db.transaction(async (tx) => {
    const values: Partial<IssueRow> = {};
    if (input.title !== undefined) values.title = input.title;
    if (input.description !== undefined) values.description = input.description;
    if (input.confidential !== undefined) values.confidential = input.confidential;
    if (input.dueDate !== undefined) values.due_date = input.dueDate;
    if (input.discussionLocked !== undefined) values.discussion_locked = input.discussionLocked;
    if (input.milestoneId !== undefined) values.milestone_id = await projectMilestone(tx, issue.project_id, input.milestoneId);
    if (input.stateEvent === 'close' && issue.state === 'opened') {
      Object.assign(values, { state: 'closed', closed_at: now(), closed_by_id: user.id });
    } else if (input.stateEvent === 'reopen' && issue.state === 'closed') {
      Object.assign(values, { state: 'opened', closed_at: null, closed_by_id: null });
    }
    const norm = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
    const changed = (Object.keys(values) as (keyof IssueRow)[]).filter((k) => norm(values[k]) !== norm(issue[k]));
    let touched = changed.length > 0;
    const oldAssignees: { user_id: number }[] = await tx('issue_assignees').where({ issue_id: issue.id }).select('user_id');
    const labelsBefore = changesLabels(input) ? await labelsOfIssuable(tx, 'Issue', issue.id) : null;
    if (input.assigneeIds !== undefined) touched = (await setAssignees(tx, issue.id, input.assigneeIds.slice(0, 1))) || touched;
    if (changesLabels(input)) {
      touched = (await applyLabelChange(tx, 'issue', issue.id, issue.project_id, input, opts.createLabels)) || touched;
    }
    if (touched || input.updatedAt !== undefined) {
      await tx('issues')
        .where({ id: issue.id })
        .update({ ...values, updated_at: input.updatedAt ?? now() });
    }
    const kept = new Set(oldAssignees.map((a) => a.user_id));
    await announce(tx, {
      name: 'issuableChanged',
      target: { type: 'Issue', id: issue.id, projectId: issue.project_id },
      actor: user,
      before: { ...issue, assignee_id: oldAssignees[0]?.user_id ?? null },
      labelsBefore,
      state: values.state !== undefined && values.state !== issue.state ? (values.state === 'closed' ? 'closed' : 'reopened') : null,
      touched,
      edit: {
        addedAssigneeIds: input.assigneeIds === undefined ? [] : input.assigneeIds.slice(0, 1).filter((id) => !kept.has(id)),
        oldTitle: issue.title,
        oldDescription: issue.description,
        title: values.title ?? issue.title,
        description: values.description !== undefined ? values.description : issue.description,
      },
    });
    return (await findIssue(tx, issue.project_id, issue.iid))!;
  });
}

/** Removes the issue with everything hanging off it (assignments cascade). */
export async function deleteIssue(db: Conn, issue: IssueRow): Promise<void> {
  await db.transaction(async (tx) => {
    await deleteIssuableDependents(tx, 'Issue', [issue.id]);
    await tx('issues').where({ id: issue.id }).delete();
  });
}
