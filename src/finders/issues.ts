// Issue lookups and the three issue lists (GitLab 10.8 IssuesFinder / IssuableFinder as the
// API drives it). Visibility comes from src/policy/issues.ts; everything a page of issues
// shows beyond its rows (authors, assignees, milestones, labels, project paths) is loaded in
// one batch per kind by `loadIssueExtras`.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import type { MilestoneRow } from './milestones.js';
import type { ProjectAccess } from '../policy/projects.js';
import { whereVisibleInProject, whereVisibleIssues } from '../policy/issues.js';
import { orFuzzyMatch, squish } from './fuzzy.js';

export interface IssueRow {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  author_id: number | null;
  confidential: boolean | number;
  discussion_locked: boolean | number | null;
  due_date: string | null;
  milestone_id: number | null;
  closed_at: string | null;
  closed_by_id: number | null;
  time_estimate: number;
  total_time_spent: number;
  user_notes_count: number;
  created_at: string;
  updated_at: string;
}

export const ISSUE_STATES = ['opened', 'closed', 'all'] as const;
export const ISSUE_SCOPES = ['created-by-me', 'assigned-to-me', 'all'] as const;
export const ISSUE_ORDERS = ['created_at', 'updated_at'] as const;

/** GitLab's special label and milestone filter values (10.x, plus None/Any of later versions). */
const NO_LABEL = new Set(['No Label', 'None']);
const NO_MILESTONE = new Set(['No Milestone', 'None']);

export interface IssueFilters {
  state: (typeof ISSUE_STATES)[number];
  scope: (typeof ISSUE_SCOPES)[number];
  labels?: string;
  milestone?: string;
  authorId?: number;
  assigneeId?: number;
  iids?: number[];
  search?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  orderBy: (typeof ISSUE_ORDERS)[number];
  sort: 'asc' | 'desc';
}

/** Which issues the list covers: one project (readable, access known), a group, or all. */
export type IssueSource =
  | { kind: 'project'; projectId: number; access: ProjectAccess }
  | { kind: 'group'; group: NamespaceRow }
  | { kind: 'all' };

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function applyFilters(q: Knex.QueryBuilder, db: Conn, user: UserRow, f: IssueFilters): void {
  if (f.state !== 'all') q.where('i.state', f.state);
  if (f.scope === 'created-by-me') q.where('i.author_id', user.id);
  if (f.scope === 'assigned-to-me') {
    q.whereExists(db('issue_assignees as sa').select(db.raw('1')).whereRaw('sa.issue_id = i.id').where('sa.user_id', user.id));
  }
  // An unknown (or 0) author or assignee id matches nothing, as the finder's failed lookup.
  if (f.authorId !== undefined) q.where('i.author_id', f.authorId);
  if (f.assigneeId !== undefined) {
    q.whereExists(db('issue_assignees as fa').select(db.raw('1')).whereRaw('fa.issue_id = i.id').where('fa.user_id', f.assigneeId));
  }
  if (f.iids && f.iids.length) q.whereIn('i.iid', f.iids);
  if (f.labels !== undefined && f.labels !== '') {
    const linked = () => db('label_links as ll').select(db.raw('1')).whereRaw("ll.target_type = 'issue' AND ll.target_id = i.id");
    if (NO_LABEL.has(f.labels)) q.whereNotExists(linked());
    else if (f.labels === 'Any') q.whereExists(linked());
    else {
      for (const title of [...new Set(f.labels.split(','))]) {
        q.whereExists(linked().join('labels as lt', 'lt.id', 'll.label_id').where('lt.title', title));
      }
    }
  }
  if (f.milestone !== undefined && f.milestone !== '') {
    if (NO_MILESTONE.has(f.milestone)) q.whereNull('i.milestone_id');
    else if (f.milestone === 'Any') q.whereNotNull('i.milestone_id');
    else if (f.milestone === '#upcoming') {
      // Per project, the active milestone(s) with the earliest due date still to come.
      const day = today();
      q.whereIn(
        'i.milestone_id',
        db('milestones as um')
          .select('um.id')
          .where('um.state', 'active')
          .where('um.due_date', '>', day)
          .whereRaw(
            "um.due_date = (SELECT MIN(u2.due_date) FROM milestones u2 WHERE u2.project_id = um.project_id AND u2.state = 'active' AND u2.due_date > ?)",
            [day],
          ),
      );
    } else if (f.milestone === '#started') {
      q.whereIn('i.milestone_id', db('milestones as sm').select('sm.id').where('sm.start_date', '<=', today()));
    } else {
      q.whereIn('i.milestone_id', db('milestones as tm').select('tm.id').where('tm.title', f.milestone));
    }
  }
  const search = squish(f.search ?? '');
  if (search !== '') {
    q.where((w) => {
      orFuzzyMatch(w, 'i.title', search);
      orFuzzyMatch(w, 'i.description', search);
    });
  }
  if (f.createdAfter) q.where('i.created_at', '>=', f.createdAfter);
  if (f.createdBefore) q.where('i.created_at', '<=', f.createdBefore);
  if (f.updatedAfter) q.where('i.updated_at', '>=', f.updatedAfter);
  if (f.updatedBefore) q.where('i.updated_at', '<=', f.updatedBefore);
}

/** The list query: visible issues of the source, filtered and ordered (id breaks ties). */
export function issuesQuery(db: Conn, user: UserRow, source: IssueSource, f: IssueFilters): Knex.QueryBuilder {
  const q = db('issues as i').select('i.*');
  if (source.kind === 'project') {
    q.where('i.project_id', source.projectId);
    whereVisibleInProject(q, db, user, source.access, 'i');
  } else {
    q.join('projects as p', 'p.id', 'i.project_id');
    if (source.kind === 'group') {
      q.whereIn('p.namespace_id', db('namespace_ancestors').select('namespace_id').where('ancestor_id', source.group.id));
    }
    whereVisibleIssues(q, db, user, 'i', 'p');
  }
  applyFilters(q, db, user, f);
  return q.orderBy(`i.${f.orderBy}`, f.sort).orderBy('i.id', f.sort);
}

export async function findIssue(db: Conn, projectId: number, iid: number): Promise<IssueRow | undefined> {
  return db('issues').where({ project_id: projectId, iid }).first();
}

export async function assigneeIdsOf(db: Conn, issueId: number): Promise<number[]> {
  const rows: { user_id: number }[] = await db('issue_assignees').where({ issue_id: issueId }).orderBy('user_id').select('user_id');
  return rows.map((r) => r.user_id);
}

/** What a page of issues shows beyond its own rows, each kind loaded in one query. */
export interface IssueExtras {
  users: Map<number, UserRow>;
  assignees: Map<number, number[]>;
  milestones: Map<number, MilestoneRow>;
  labels: Map<number, string[]>;
  projectPaths: Map<number, string>;
}

export async function loadIssueExtras(db: Conn, issues: IssueRow[]): Promise<IssueExtras> {
  const ids = issues.map((i) => i.id);
  const milestoneIds = [...new Set(issues.map((i) => i.milestone_id).filter((x): x is number => x !== null))];
  const projectIds = [...new Set(issues.map((i) => i.project_id))];
  const [assigneeRows, milestoneRows, labelRows, projectRows] = await Promise.all([
    ids.length ? db('issue_assignees').whereIn('issue_id', ids).orderBy(['issue_id', 'user_id']).select('issue_id', 'user_id') : [],
    milestoneIds.length ? db('milestones').whereIn('id', milestoneIds) : [],
    ids.length
      ? db('label_links as ll').join('labels as l', 'l.id', 'll.label_id').where('ll.target_type', 'issue').whereIn('ll.target_id', ids).select('ll.target_id', 'l.title')
      : [],
    projectIds.length
      ? db('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').whereIn('p.id', projectIds).select('p.id', 'p.path', 'n.full_path')
      : [],
  ]);
  const assignees = new Map<number, number[]>();
  for (const r of assigneeRows as { issue_id: number; user_id: number }[]) {
    const list = assignees.get(r.issue_id) ?? [];
    list.push(r.user_id);
    assignees.set(r.issue_id, list);
  }
  const userIds = new Set<number>();
  for (const i of issues) {
    if (i.author_id !== null) userIds.add(i.author_id);
    if (i.closed_by_id !== null) userIds.add(i.closed_by_id);
  }
  for (const list of assignees.values()) for (const id of list) userIds.add(id);
  const userRows: UserRow[] = userIds.size ? await db('users').whereIn('id', [...userIds]) : [];
  const labels = new Map<number, string[]>();
  for (const r of labelRows as { target_id: number; title: string }[]) {
    const list = labels.get(r.target_id) ?? [];
    list.push(r.title);
    labels.set(r.target_id, list);
  }
  for (const list of labels.values()) list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    users: new Map(userRows.map((u) => [u.id, u])),
    assignees,
    milestones: new Map((milestoneRows as MilestoneRow[]).map((m) => [m.id, m])),
    labels,
    projectPaths: new Map((projectRows as { id: number; path: string; full_path: string }[]).map((p) => [p.id, `${p.full_path}/${p.path}`])),
  };
}
