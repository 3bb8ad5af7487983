// Moving an issue to another project (GitLab 10.8's Issues::MoveService), in one transaction:
// - the new issue takes the target project's next iid and the old one's attributes (title,
//   description, state, confidentiality, due date, lock, estimate, creation time, author,
//   assignees); its labels are the target's labels of the same titles, its milestone the
//   target's milestone of the same title (none when the target has none);
// - every note (system notes too) is copied with its author, times, thread and position, and
//   the award emoji of the issue and of its notes with them;
// - the system notes "moved from <old>" on the new issue and "moved to <new>" on the old one
//   (references as seen from the project each note is in);
// - the old issue is closed (with its event, without another system note) and remembers
//   where it went (`moved_to_id`), which keeps it from being moved again;
// - the new issue's `created` event in the target project.
// Description references are not rewritten (10.8 rewrote `#12` into `group/project#12`).
// The caller has checked the permissions (admin_issue on the issue and on the target).
import type { Tx, Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { nextIid } from '../../store/iids.js';
import { findIssue } from '../../finders/issues.js';
import type { IssueRow } from '../../store/issuable_rows.js';
import { announce } from '../notify.js';
import { createSystemNote } from '../notes/notes.js';
import { issueReference } from '../merge_requests/closing_issues.js';

export const MOVE_DENIED = 'Cannot move issue due to insufficient permissions!';
export const MOVE_SAME_PROJECT = 'Cannot move issue to project it originates from!';

async function mappedLabelIds(tx: Tx, issue: IssueRow, target: ProjectWithNamespace): Promise<number[]> {
  const titles: string[] = await tx('label_links as ll').join('labels as l', 'l.id', 'll.label_id').where({ 'll.target_type': 'issue', 'll.target_id': issue.id }).pluck('l.title');
  if (!titles.length) return [];
  return tx('labels').where({ project_id: target.id }).whereIn('title', titles).orderBy('id').pluck('id');
}

async function mappedMilestoneId(tx: Tx, issue: IssueRow, target: ProjectWithNamespace): Promise<number | null> {
  if (issue.milestone_id === null) return null;
  const old = await tx('milestones').where({ id: issue.milestone_id }).first('title');
  if (!old) return null;
  const found = await tx('milestones').where({ project_id: target.id, title: old.title }).orderBy('id').first('id');
  return found ? found.id : null;
}

/** Copies the award emoji of `from` (a type and ids) onto the matching new ids. */
async function copyAwards(tx: Tx, type: 'Issue' | 'Note', ids: Map<number, number>): Promise<void> {
  if (!ids.size) return;
  const awards: Record<string, unknown>[] = await tx('award_emoji')
    .where({ awardable_type: type })
    .whereIn('awardable_id', [...ids.keys()]);
  for (const a of awards) {
    const { id: _id, awardable_id, ...rest } = a;
    await tx('award_emoji').insert({ ...rest, awardable_id: ids.get(awardable_id as number) });
  }
}

async function copyNotes(tx: Tx, issue: IssueRow, newIssueId: number, target: ProjectWithNamespace): Promise<number> {
  const notes: Record<string, unknown>[] = await tx('notes').where({ noteable_type: 'Issue', noteable_id: issue.id }).orderBy('id');
  const ids = new Map<number, number>();
  let userNotes = 0;
  for (const n of notes) {
    const { id, ...rest } = n;
    const newId = await insertReturningId(tx, 'notes', { ...rest, project_id: target.id, noteable_id: newIssueId });
    ids.set(id as number, newId);
    if (!n.system) userNotes++;
  }
  await copyAwards(tx, 'Note', ids);
  return userNotes;
}

/** Moves `issue` (of `source`) to `target`; returns the new issue. */
export async function moveIssue(db: Conn, issue: IssueRow, source: ProjectWithNamespace, target: ProjectWithNamespace, user: UserRow): Promise<IssueRow> {
  return db.transaction(async (tx) => {
    const stamp = now();
    const iid = await nextIid(tx, target.id, 'issues');
    await tx('issues').insert({
      project_id: target.id,
      iid,
      title: issue.title,
      description: issue.description,
      state: issue.state,
      author_id: issue.author_id,
      confidential: issue.confidential,
      discussion_locked: issue.discussion_locked,
      due_date: issue.due_date,
      milestone_id: await mappedMilestoneId(tx, issue, target),
      closed_at: issue.closed_at,
      closed_by_id: issue.closed_by_id,
      time_estimate: issue.time_estimate,
      created_at: issue.created_at,
      updated_at: stamp,
    });
    const moved = (await findIssue(tx, target.id, iid))!;
    const assignees: number[] = await tx('issue_assignees').where({ issue_id: issue.id }).pluck('user_id');
    if (assignees.length) await tx('issue_assignees').insert(assignees.map((user_id) => ({ issue_id: moved.id, user_id })));
    const labels = await mappedLabelIds(tx, issue, target);
    if (labels.length) await tx('label_links').insert(labels.map((label_id) => ({ target_type: 'issue', target_id: moved.id, label_id })));
    const userNotes = await copyNotes(tx, issue, moved.id, target);
    await tx('issues').where({ id: moved.id }).update({ user_notes_count: userNotes });
    await copyAwards(tx, 'Issue', new Map([[issue.id, moved.id]]));

    const newTarget = { type: 'Issue' as const, id: moved.id, projectId: target.id };
    const oldTarget = { type: 'Issue' as const, id: issue.id, projectId: source.id };
    await createSystemNote(tx, newTarget, user, `moved from ${issueReference(issue, source, target)}`);
    await createSystemNote(tx, oldTarget, user, `moved to ${issueReference(moved, target, source)}`);

    const close = issue.state === 'opened' ? { state: 'closed', closed_at: stamp, closed_by_id: user.id, updated_at: stamp } : {};
    await tx('issues')
      .where({ id: issue.id })
      .update({ ...close, moved_to_id: moved.id });
    await announce(tx, { name: 'issueMoved', from: oldTarget, to: newTarget, actor: user, closed: issue.state === 'opened' });
    return (await findIssue(tx, target.id, iid))!;
  });
}
