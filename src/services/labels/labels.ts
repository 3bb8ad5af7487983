// Project labels: reading, creating, changing, deleting and subscribing (GitLab 10.8's
// Labels::CreateService / UpdateService, the Label and ProjectLabel models and Subscribable).
// Permissions are checked by the caller; label rows only change here.
import type { Knex } from 'knex';
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import { Conflict, Invalid } from '../../store/domain_errors.js';
import { now } from '../../store/time.js';
import { COLOR_NAMES } from './colors.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { ProjectAccess } from '../../policy/projects.js';
import { canReadIssues, whereVisibleInProject } from '../../policy/issues.js';
import { canReadMergeRequests } from '../../policy/merge_requests.js';
import type { LabelRow, LabelCounts } from '../../store/issuable_rows.js';
import { storableId, storableText } from '../../store/stored_values.js';

export const DEFAULT_COLOR = '#428BCA';
const COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;
const MAX_TITLE = 255;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: '\u00a0' };

/**
 * What GitLab stores for a label or milestone title: HTML tags removed (Sanitize.clean),
 * then entities unescaped, so "foo & bar -> 2" survives and "<b>x</b>" becomes "x".
 */
export function sanitizeTitle(value: string): string {
  return value
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?[A-Za-z!][^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_m, e: string) => ENTITIES[e]);
}

/** A title as assigned: blank values are ignored (undefined = keep what is there). */
function assignedTitle(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  return sanitizeTitle(value);
}

/** A CSS colour name becomes its hex code; anything else is kept for validation to judge. */
function normaliseColor(color: string): string {
  const name = color.trim().toLowerCase();
  if (name.startsWith('#')) return color;
  return COLOR_NAMES.get(name) ?? color;
}

/**
 * The project's labels by title (what the list endpoint pages). Case-insensitively, as
 * GitLab's PostgreSQL collation sorts them; exact title breaks ties so pages are stable.
 */
export function labelsQuery(db: Conn, projectId: number): Knex.QueryBuilder {
  return db('labels').where({ project_id: projectId }).orderByRaw('lower(title) asc, title asc');
}

/** The label titled exactly `title` (GitLab matches titles case-sensitively). */
export async function findLabelByTitle(db: Conn, projectId: number, title: string): Promise<LabelRow | undefined> {
  if (!storableText(title)) return undefined; // no title holds a NUL
  return db('labels').where({ project_id: projectId, title }).first();
}

/** Subscriptions name a label by id or, failing that, by title. */
export async function findLabelByIdOrTitle(db: Conn, projectId: number, key: string): Promise<LabelRow | undefined> {
  const id = storableId(key);
  if (id !== null) {
    const byId = await db('labels').where({ project_id: projectId, id }).first();
    if (byId) return byId;
  }
  return findLabelByTitle(db, projectId, key);
}

/** Who is counting: the counts are of what this user may see of the project. */
export interface LabelViewer {
  user: UserRow | null;
  project: ProjectWithNamespace;
  access: ProjectAccess;
}

/**
 * Issue and merge request counts of a page of labels, as GitLab 10.8's Label entity computes
 * them (Label#open_issues_count and friends, through IssuesFinder and MergeRequestsFinder for
 * the label's project): open and closed issues of the project carrying the label, none unless
 * the user may read its issues, confidential ones only for those who may see them (reporters
 * and up, admins, their author and assignees); open merge requests targeting the project
 * carrying the label, none unless the user may read its merge requests. Two grouped queries
 * for the whole page.
 */
export async function labelCounts(db: Conn, labelIds: number[], viewer: LabelViewer): Promise<Map<number, LabelCounts>> {
  const counts = new Map(labelIds.map((id) => [id, { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }]));
  if (labelIds.length === 0) return counts;
  const { user, project, access } = viewer;
  const grouped = (table: 'issues' | 'merge_requests', linkType: 'issue' | 'merge_request', projectColumn: string, states: string[]) =>
    db('label_links as ll')
      .join(`${table} as t`, 't.id', 'll.target_id')
      .where('ll.target_type', linkType)
      .whereIn('ll.label_id', labelIds)
      .where(`t.${projectColumn}`, project.id)
      .whereIn('t.state', states)
      .groupBy('ll.label_id', 't.state')
      .select('ll.label_id', 't.state')
      .count({ n: '*' }) as Knex.QueryBuilder;
  type Row = { label_id: number; state: string; n: number | string };
  const [issueRows, mergeRequestRows] = await Promise.all([
    canReadIssues(user, project, access) ? whereVisibleInProject(grouped('issues', 'issue', 'project_id', ['opened', 'closed']), db, user, access, 't') : [],
    canReadMergeRequests(user, project, access) ? grouped('merge_requests', 'merge_request', 'target_project_id', ['opened']) : [],
  ]);
  for (const r of issueRows as Row[]) {
    const c = counts.get(r.label_id)!;
    if (r.state === 'opened') c.open_issues_count = Number(r.n);
    else c.closed_issues_count = Number(r.n);
  }
  for (const r of mergeRequestRows as Row[]) counts.get(r.label_id)!.open_merge_requests_count = Number(r.n);
  return counts;
}

/** Which of these labels the user is subscribed to: one query for the whole page. */
export async function subscribedLabelIds(db: Conn, userId: number, labelIds: number[]): Promise<Set<number>> {
  if (labelIds.length === 0) return new Set();
  const rows = await db('label_subscriptions').where({ user_id: userId }).whereIn('label_id', labelIds).select('label_id');
  return new Set(rows.map((r: { label_id: number }) => r.label_id));
}

/** Whether another label of the project already has this title. */
async function titleTaken(db: Conn, projectId: number, title: string | null, exceptId = 0): Promise<boolean> {
  if (!title) return false;
  return !!(await db('labels').where({ project_id: projectId, title }).whereNot({ id: exceptId }).first('id'));
}

/** The model's validations, in its order (colour, then title); empty when valid. */
function labelErrors(title: string | null, color: string, priority: number | null | undefined, titleTaken: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, msg: string) => (errors[field] ??= []).push(msg);
  if (!COLOR.test(color)) add('color', 'must be a valid color code');
  if (!title) add('title', "can't be blank");
  if (!title || title.includes(',')) add('title', 'is invalid');
  if (titleTaken) add('title', 'has already been taken');
  if (title && title.length > MAX_TITLE) add('title', `is too long (maximum is ${MAX_TITLE} characters)`);
  // GitLab answers a 500 here (LabelPriority#save!); a 400 with the priority's own rule instead.
  if (typeof priority === 'number' && priority < 0) add('priority', 'must be greater than or equal to 0');
  return errors;
}

function check(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length) throw new Invalid(errors);
}

const taken = () => new Invalid({ title: ['has already been taken'] });

export interface NewLabel {
  name: string;
  color: string | null;
  description?: string | null;
  priority?: number | null;
}

/** Creates a label: 409 when the title is taken as given, 400 when the model refuses it. */
export async function createLabel(db: Conn, projectId: number, attrs: NewLabel): Promise<LabelRow> {
  if (await findLabelByTitle(db, projectId, attrs.name)) throw new Conflict('Label already exists');
  const title = assignedTitle(attrs.name)?.trim() ?? null;
  // A null colour reads back as the default (Label#color), so store that.
  const color = attrs.color === null ? DEFAULT_COLOR : normaliseColor(attrs.color).trim();
  check(labelErrors(title, color, attrs.priority, await titleTaken(db, projectId, title)));
  const stamp = now();
  try {
    const id = await insertReturningId(db, 'labels', {
      project_id: projectId,
      title,
      color,
      description: attrs.description ?? null,
      priority: attrs.priority ?? null,
      created_at: stamp,
      updated_at: stamp,
    });
    return (await db('labels').where({ id }).first())!;
  } catch (err) {
    // A concurrent create or rename took the title between the check and the insert.
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

export interface LabelChange {
  newName?: string | null;
  color?: string | null;
  description?: string | null;
  /** undefined: untouched; null: unprioritised. */
  priority?: number | null;
}

export async function updateLabel(db: Conn, label: LabelRow, change: LabelChange): Promise<LabelRow> {
  const title = (assignedTitle(change.newName) ?? label.title).trim();
  let color = label.color;
  if (change.color !== undefined) color = change.color === null ? DEFAULT_COLOR : normaliseColor(change.color).trim();
  check(labelErrors(title, color, change.priority, await titleTaken(db, label.project_id, title, label.id)));
  const changes: Partial<LabelRow> = { title, color, updated_at: now() };
  if (change.description !== undefined) changes.description = change.description;
  if (change.priority !== undefined) changes.priority = change.priority;
  try {
    await db('labels').where({ id: label.id }).update(changes);
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  return { ...label, ...changes };
}

export async function deleteLabel(db: Conn, label: LabelRow): Promise<void> {
  await db('labels').where({ id: label.id }).delete();
}

/** Subscribes or unsubscribes; false when the user already was in that state (304). */
export async function setLabelSubscription(db: Conn, label: LabelRow, userId: number, subscribed: boolean): Promise<boolean> {
  if (!subscribed) return (await db('label_subscriptions').where({ label_id: label.id, user_id: userId }).delete()) > 0;
  try {
    await db('label_subscriptions').insert({ label_id: label.id, user_id: userId, created_at: now() });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
