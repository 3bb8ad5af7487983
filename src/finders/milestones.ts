// Project milestone lookups and the milestone list (GitLab 10.8 MilestoneResponses):
// newest first, `state` active|closed|all (default all), `iids`, and a fuzzy `search`
// over title or description.
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import { paginateArray } from '../http/pagination.js';
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
 * the current user may see them. Empty until issues and merge requests exist: the issues and
 * merge-request work of issue 4 fills this in with the issue finder (milestone title, label
 * priority order, confidential issues hidden from those who may not see them).
 */
export async function milestoneIssuables(ctx: Koa.Context, _milestone: MilestoneRow, _kind: 'issues' | 'merge_requests'): Promise<unknown[]> {
  return paginateArray(ctx, []);
}
