// Merge request lookups and the two merge request lists (GitLab 10.8 MergeRequestsFinder /
// IssuableFinder as the API drives it). Visibility comes from src/policy/merge_requests.ts;
// everything a page shows beyond its rows (users, milestones, labels, votes, project paths)
// is loaded in one batch per kind by `loadMergeRequestExtras`.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import type { MilestoneRow, MergeRequestRow } from '../store/issuable_rows.js';
import { whereVisibleMergeRequests } from '../policy/merge_requests.js';
import { awardedIds, voteCounts } from './award_emoji.js';
import { applySharedFilters, labelTitlesOf, type IssuableListFilters } from './issuable_filters.js';
import { isProtected } from '../policy/branches.js';
import { PRIVATE } from '../store/levels.js';
import { findProjectByIdOrPath } from './projects.js';
import { countedUnder, ISSUABLE_LIST_TOPICS } from '../store/count_cache.js';
import { hotRows } from '../store/hot.js';
import type { MergeRequestExtras } from '../store/extras.js';
export type { MergeRequestExtras } from '../store/extras.js';

export async function findMergeRequest(db: Conn, projectId: number, iid: number): Promise<MergeRequestRow | undefined> {
  return db('merge_requests').where({ target_project_id: projectId, iid }).first();
}

/** The project's merge requests of these iids, newest first. */
export async function mergeRequestsByIid(db: Conn, projectId: number, iids: number[]): Promise<MergeRequestRow[]> {
  return db('merge_requests').where({ target_project_id: projectId }).whereIn('iid', iids).orderBy('id', 'desc');
}

/** The open and merged merge requests into a branch of the project, newest first (those that may close issues). */
export async function openOrMergedInto(db: Conn, projectId: number, targetBranch: string): Promise<MergeRequestRow[]> {
  return db('merge_requests').where({ target_project_id: projectId, target_branch: targetBranch }).whereIn('state', ['opened', 'merged']).orderBy('id', 'desc');
}

export const MR_STATES = ['opened', 'closed', 'merged', 'locked', 'all'] as const;
export const MR_SCOPES = ['created-by-me', 'assigned-to-me', 'all'] as const;
export const MR_ORDERS = ['created_at', 'updated_at'] as const;

export interface MergeRequestFilters extends IssuableListFilters {
  state: (typeof MR_STATES)[number];
  sourceBranch?: string;
  targetBranch?: string;
}

/** One project (readability established by the caller) or every project the user may read. */
export type MergeRequestSource = { kind: 'project'; projectId: number } | { kind: 'all' };

function applyFilters(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, f: MergeRequestFilters, projectId: number | undefined): void {
  if (f.state !== 'all') q.where('mr.state', f.state);
  if (f.scope === 'created-by-me' || f.scope === 'assigned-to-me') {
    // IssuableFinder: a user-related scope without a user finds nothing.
    if (!user) q.whereRaw('1 = 0');
    else if (f.scope === 'created-by-me') q.where('mr.author_id', user.id);
    else q.where('mr.assignee_id', user.id);
  }
  // An unknown (or 0) author or assignee id matches nothing, as the finder's failed lookup.
  if (f.authorId !== undefined) q.where('mr.author_id', f.authorId);
  if (f.assigneeId !== undefined) q.where('mr.assignee_id', f.assigneeId);
  if (f.sourceBranch) q.where('mr.source_branch', f.sourceBranch);
  if (f.targetBranch) q.where('mr.target_branch', f.targetBranch);
  if (f.iids && f.iids.length) q.whereIn('mr.iid', f.iids);
  if (f.myReactionEmoji && user) q.whereIn('mr.id', awardedIds(db, 'MergeRequest', user.id, f.myReactionEmoji));
  applySharedFilters(q, db, 'merge_request', 'mr', f, projectId);
}

/** The list query: readable merge requests of the source, filtered and ordered (id breaks ties). */
export function mergeRequestsQuery(db: Conn, user: UserRow | null, source: MergeRequestSource, f: MergeRequestFilters): Knex.QueryBuilder {
  const q = db('merge_requests as mr').select('mr.*');
  if (source.kind === 'project') q.where('mr.target_project_id', source.projectId);
  else {
    q.join('projects as p', 'p.id', 'mr.target_project_id');
    whereVisibleMergeRequests(q, db, user, 'p');
  }
  applyFilters(q, db, user, f, source.kind === 'project' ? source.projectId : undefined);
  return countedUnder(q, ISSUABLE_LIST_TOPICS).orderBy(`mr.${f.orderBy}`, f.sort).orderBy('mr.id', f.sort);
}

export async function loadMergeRequestExtras(db: Conn, rows: MergeRequestRow[], opts: { simple?: boolean } = {}): Promise<MergeRequestExtras> {
  const ids = rows.map((r) => r.id);
  const projectIds = [...new Set(rows.flatMap((r) => (r.source_project_id === null ? [r.target_project_id] : [r.target_project_id, r.source_project_id])))];
  const projectRows = projectIds.length
    ? hotRows(
        db,
        db('projects as p')
          .join('namespaces as n', 'n.id', 'p.namespace_id')
          .whereIn('p.id', projectIds)
          .select('p.id', 'p.path', 'n.full_path', 'p.visibility_level', 'p.jobs_enabled'),
      )
    : Promise.resolve([]);
  if (opts.simple) {
    return {
      users: new Map(),
      milestones: new Map(),
      labels: new Map(),
      votes: new Map(),
      ...projectsOf((await projectRows) as PathRow[]),
    };
  }
  const milestoneIds = [...new Set(rows.map((r) => r.milestone_id).filter((x): x is number => x !== null))];
  const userIds = new Set<number>();
  for (const r of rows) {
    for (const id of [r.author_id, r.assignee_id, r.merged_by_id, r.closed_by_id]) if (id !== null) userIds.add(id);
  }
  const [milestoneRows, labels, paths, userRows, votes] = await Promise.all([
    milestoneIds.length ? hotRows(db, db('milestones').whereIn('id', milestoneIds)) : [],
    labelTitlesOf(db, 'merge_request', ids),
    projectRows,
    userIds.size ? hotRows(db, db('users').whereIn('id', [...userIds])) : [],
    voteCounts(db, 'MergeRequest', ids),
  ]);
  return {
    users: new Map((userRows as UserRow[]).map((u) => [u.id, u])),
    milestones: new Map((milestoneRows as MilestoneRow[]).map((m) => [m.id, m])),
    labels,
    votes,
    ...projectsOf(paths as PathRow[]),
  };
}

/**
 * MergeRequest#allow_maintainer_to_push of merge requests from forks, by id: the stored
 * choice, only while a maintainer push is possible (both projects public or internal, the
 * source branch not protected); false when it is not.
 */
export async function maintainerPushOf(db: Conn, rows: MergeRequestRow[], extras: MergeRequestExtras): Promise<Map<number, boolean | null>> {
  const out = new Map<number, boolean | null>();
  for (const row of rows) {
    if (!isForFork(row)) continue;
    out.set(row.id, await maintainerPush(db, row, extras));
  }
  return out;
}

/** A merge request from another project (a deleted source project counts: it was a fork). */
function isForFork(row: MergeRequestRow): boolean {
  return row.source_project_id !== row.target_project_id;
}

async function maintainerPush(db: Conn, row: MergeRequestRow, extras: MergeRequestExtras): Promise<boolean | null> {
  if (row.source_project_id === null) return false;
  const target = extras.projects.get(row.target_project_id);
  const source = extras.projects.get(row.source_project_id);
  if (!target || !source || target.visibilityLevel <= PRIVATE || source.visibilityLevel <= PRIVATE) return false;
  const sourceProject = await findProjectByIdOrPath(db, String(row.source_project_id));
  if (!sourceProject || (await isProtected(db, sourceProject, row.source_branch))) return false;
  return row.allow_maintainer_to_push === null ? null : !!row.allow_maintainer_to_push;
}

type PathRow = { id: number; path: string; full_path: string; visibility_level: number; jobs_enabled: boolean | number };

function projectsOf(rows: PathRow[]): Pick<MergeRequestExtras, 'projectPaths' | 'projects'> {
  return {
    projectPaths: new Map(rows.map((p) => [p.id, `${p.full_path}/${p.path}`])),
    projects: new Map(rows.map((p) => [p.id, { visibilityLevel: p.visibility_level, jobsEnabled: !!p.jobs_enabled }])),
  };
}

/** The open merge request from this source branch into this target, if any. */
export async function findOpenMergeRequests(db: Conn, targetProjectId: number, sourceProjectId: number, sourceBranch: string, targetBranch: string): Promise<MergeRequestRow[]> {
  return db('merge_requests')
    .where({ target_project_id: targetProjectId, source_project_id: sourceProjectId, source_branch: sourceBranch, target_branch: targetBranch, state: 'opened' })
    .orderBy('id');
}
