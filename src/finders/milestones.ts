// Project milestone lookups and the milestone list (GitLab 10.8 MilestoneResponses):
// newest first, `state` active|closed|all (default all), `iids`, and a fuzzy `search`
// over title or description.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { whereConfidentialVisible } from '../policy/issues.js';
import type { MilestoneRow } from '../store/issuable_rows.js';
import { orFuzzyMatch, squish } from './fuzzy.js';

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

/** Label priority first (unprioritized last), then newest: 10.8's `sort: 'label_priority'`. */
function byLabelPriority(q: Knex.QueryBuilder, linkType: 'issue' | 'merge_request', alias: string): Knex.QueryBuilder {
  const priority = `(SELECT MIN(l.priority) FROM label_links ll JOIN labels l ON l.id = ll.label_id WHERE ll.target_type = '${linkType}' AND ll.target_id = ${alias}.id)`;
  return q.orderByRaw(`${priority} IS NULL`).orderByRaw(priority).orderBy(`${alias}.id`, 'desc');
}

/** The milestone's merge requests, in its project, by label priority. */
export function milestoneMergeRequests(db: Conn, milestone: MilestoneRow): Knex.QueryBuilder {
  const query = db('merge_requests as mr').select('mr.*').where({ 'mr.target_project_id': milestone.project_id, 'mr.milestone_id': milestone.id });
  return byLabelPriority(query, 'merge_request', 'mr');
}

/** The milestone's issues the user may see, by label priority. */
export function milestoneIssues(db: Conn, user: UserRow | null, milestone: MilestoneRow): Knex.QueryBuilder {
  const query = db('issues as i')
    .select('i.*')
    .join('projects as p', 'p.id', 'i.project_id')
    .where({ 'i.project_id': milestone.project_id, 'i.milestone_id': milestone.id, 'p.issues_enabled': true });
  byLabelPriority(query, 'issue', 'i');
  whereConfidentialVisible(query, db, user, 'i');
  return query;
}
