// Creating, changing and deleting project milestones (GitLab 10.8's Milestones::CreateService,
// UpdateService, Close/ReopenService and the Milestone model's rules). Permissions are
// checked by the caller. A failure is the API's 400 whose message embeds the model errors as
// Ruby prints a Hash: `Failed to create milestone {:title=>["..."]}`.
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { Rejected } from '../../store/domain_errors.js';
import { nextIid } from '../../store/iids.js';
import { now } from '../../store/time.js';
import { findMilestone } from '../../finders/milestones.js';
import type { MilestoneRow } from '../../store/issuable_rows.js';
import { sanitizeTitle } from '../labels/labels.js';
import { announce } from '../notify.js';

const TITLE_TAKEN = 'already being used for another group or project milestone.';

type Errors = Record<string, string[]>;

/** Ruby's Hash#inspect of symbol keys and string arrays, as GitLab interpolates it. */
function rubyInspect(errors: Errors): string {
  const pairs = Object.entries(errors).map(([k, msgs]) => `:${k}=>[${msgs.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${pairs.join(', ')}}`;
}

/** A title as assigned: blank ignored (undefined), else sanitised and stripped. */
function assignedTitle(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const clean = sanitizeTitle(value).trim();
  return clean === '' ? undefined : clean;
}

async function titleTaken(db: Conn, projectId: number, title: string, exceptId = 0): Promise<boolean> {
  return !!(await db('milestones').where({ project_id: projectId, title }).whereNot({ id: exceptId }).first('id'));
}

/** The model's validations in its order; `titleChanged` as Rails' `title_changed?`. */
async function milestoneErrors(db: Conn, m: Omit<MilestoneRow, 'iid' | 'created_at' | 'updated_at'>, titleChanged: boolean): Promise<Errors> {
  const errors: Errors = {};
  // GitLab has no presence rule and fails on the NOT NULL column (a 500); a 400 instead.
  if (!m.title) errors.title = ["can't be blank"];
  else if (titleChanged && (await titleTaken(db, m.project_id, m.title, m.id))) errors.title = [TITLE_TAKEN];
  if (m.start_date && m.due_date && m.due_date <= m.start_date) errors.due_date = ['must be greater than start date'];
  return errors;
}

function failed(verb: 'create' | 'update', errors: Errors) {
  return new Rejected(`Failed to ${verb} milestone ${rubyInspect(errors)}`);
}

export interface NewMilestone {
  title: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
}

/** Creates an active milestone with the project's next milestone iid, in one transaction. */
export async function createMilestone(db: Conn, projectId: number, attrs: NewMilestone, actorId: number): Promise<MilestoneRow> {
  const draft = {
    id: 0,
    project_id: projectId,
    title: assignedTitle(attrs.title) ?? '',
    description: attrs.description ?? null,
    state: 'active' as const,
    due_date: attrs.dueDate ?? null,
    start_date: attrs.startDate ?? null,
  };
  try {
    return await db.transaction(async (tx) => {
      const errors = await milestoneErrors(tx, draft, true);
      if (Object.keys(errors).length) throw failed('create', errors);
      const stamp = now();
      const { id: _unused, ...values } = draft;
      const row = { ...values, iid: await nextIid(tx, projectId, 'milestones'), created_at: stamp, updated_at: stamp };
      await tx('milestones').insert(row);
      const created = (await tx('milestones').where({ project_id: projectId, iid: row.iid }).first()) as MilestoneRow;
      await announce(tx, { name: 'milestoneCreated', projectId, milestoneId: created.id, actorId, at: stamp });
      return created;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw failed('create', { title: [TITLE_TAKEN] });
    throw err;
  }
}

export interface MilestoneChange {
  title?: string | null;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
  stateEvent?: 'close' | 'activate';
}

/** Applies the given attributes and state event; nothing changes when validation fails. */
export async function updateMilestone(db: Conn, milestone: MilestoneRow, change: MilestoneChange, actorId: number): Promise<MilestoneRow> {
  const title = assignedTitle(change.title) ?? milestone.title;
  const next: MilestoneRow = {
    ...milestone,
    title,
    description: change.description !== undefined ? change.description : milestone.description,
    due_date: change.dueDate !== undefined ? change.dueDate : milestone.due_date,
    start_date: change.startDate !== undefined ? change.startDate : milestone.start_date,
    // close only from active, activate only from closed (the state machine's transitions).
    state: change.stateEvent === 'close' ? 'closed' : change.stateEvent === 'activate' ? 'active' : milestone.state,
  };
  try {
    return await db.transaction(async (tx) => {
      const errors = await milestoneErrors(tx, next, title !== milestone.title);
      if (Object.keys(errors).length) throw failed('update', errors);
      const { id, project_id: _p, iid: _i, created_at: _c, updated_at: _u, ...values } = next;
      const changed = (Object.keys(values) as (keyof typeof values)[]).some((k) => values[k] !== milestone[k]);
      if (!changed) return milestone; // as Rails: an update that changes nothing keeps updated_at
      await tx('milestones')
        .where({ id })
        .update({ ...values, updated_at: now() });
      if (next.state !== milestone.state) {
        const state = next.state === 'closed' ? 'closed' : 'reopened';
        await announce(tx, { name: 'milestoneStateChanged', projectId: milestone.project_id, milestoneId: id, actorId, state });
      }
      return (await findMilestone(tx, milestone.project_id, id))!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw failed('update', { title: [TITLE_TAKEN] });
    throw err;
  }
}

/** Removes the milestone (the API's plain destroy: no event, unlike DestroyService). */
export async function deleteMilestone(db: Conn, milestone: MilestoneRow): Promise<void> {
  await db.transaction(async (tx) => {
    // Its events go with it (Milestone has_many :events, dependent: :destroy).
    await tx('events').where({ target_type: 'Milestone', target_id: milestone.id }).delete();
    await tx('milestones').where({ id: milestone.id }).delete();
  });
}
