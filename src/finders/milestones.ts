// Project milestone lookups and the milestone list (GitLab 10.8 MilestoneResponses):
// newest first, `state` active|closed|all (default all), `iids`, and a fuzzy `search`
// over title or description.
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import { paginate, paginateArray } from '../http/pagination.js';
import type { Urls } from '../http/urls.js';
import { currentUser } from '../http/auth.js';
import { whereConfidentialVisible } from '../policy/issues.js';
import { issueBasic } from '../entities/issue.js';
import { loadIssueExtras, type IssueRow } from './issues.js';
import { orFuzzyMatch, squish } from './fuzzy.js';

export interface MilestoneRow {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  due_date: string | null;
  start_date: string | null;
  created_at: string;
  updated_at: string;
}

export const MILESTONE_STATES = ['active', 'closed', 'all'] as const;

export interface MilestoneFilters {
  state: (typeof MILESTONE_STATES)[number];
  iids?: number[];
  search?: string;
}

export function milestonesQuery(db: Conn, projectId: number, f: MilestoneFilters): Knex.QueryBuilder {
  const q = db('milestones').where({ project_id: projectId }).orderBy('id', 'desc');
  if (f.state !== 'all') q.where({ state: f.state });
  if (f.iids && f.iids.length) q.whereIn('iid', f.iids);
  const search = squish(f.search ?? '');
  if (search !== '') {
    q.where((w) => {
      orFuzzyMatch(w, 'title', search);
      orFuzzyMatch(w, 'description', search);
    });
  }
  return q;
}

/** The project's milestone with this global id (10.8's routes take `id`, not `iid`). */
export async function findMilestone(db: Conn, projectId: number, id: number): Promise<MilestoneRow | undefined> {
  return db('milestones').where({ project_id: projectId, id }).first();
}

/**
 * One page of the milestone's issues (IssueBasic) or merge requests (MergeRequestBasic), as
 * the current user may see them (confidential issues hidden from those who may not), by label
 * priority (the highest-priority label first, unprioritised last), newest first among equals.
 * Merge requests do not exist yet: that list is empty.
 */
export async function milestoneIssuables(
  ctx: Koa.Context,
  db: Conn,
  urls: Urls,
  milestone: MilestoneRow,
  kind: 'issues' | 'merge_requests',
): Promise<unknown[]> {
  if (kind === 'merge_requests') return paginateArray(ctx, []);
  const query = db('issues as i')
    .select('i.*')
    .join('projects as p', 'p.id', 'i.project_id')
    .where({ 'i.project_id': milestone.project_id, 'i.milestone_id': milestone.id, 'p.issues_enabled': true })
    .orderByRaw(
      "(SELECT MIN(l.priority) FROM label_links ll JOIN labels l ON l.id = ll.label_id WHERE ll.target_type = 'issue' AND ll.target_id = i.id) IS NULL",
    )
    .orderByRaw("(SELECT MIN(l.priority) FROM label_links ll JOIN labels l ON l.id = ll.label_id WHERE ll.target_type = 'issue' AND ll.target_id = i.id)")
    .orderBy('i.id', 'desc');
  whereConfidentialVisible(query, db, currentUser(ctx), 'i');
  const rows = await paginate<IssueRow>(ctx, db, query);
  const extras = await loadIssueExtras(db, rows);
  return rows.map((row) => issueBasic(row, extras, urls));
}
