// Issue lookups and the three issue lists (GitLab 10.8 IssuesFinder / IssuableFinder as the
// API drives it). Visibility comes from src/policy/issues.ts; everything a page of issues
// shows beyond its rows (authors, assignees, milestones, labels, project paths) is loaded in
// one batch per kind by `loadIssueExtras`.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import { trigramMatch } from './fuzzy.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import type { MilestoneRow, IssueRow } from '../store/issuable_rows.js';
import type { ProjectAccess } from '../policy/projects.js';
import { whereVisibleInProject, whereVisibleIssues } from '../policy/issues.js';
import { applySharedFilters, filtersByLabelTitles, filtersByMilestone, labelTitlesOf, type IssuableListFilters } from './issuable_filters.js';
import { withPagingPlan, type Page } from '../store/paging.js';
import { awardedIds, voteCounts } from './award_emoji.js';
import { countedUnder, ISSUABLE_LIST_TOPICS } from '../store/count_cache.js';
import { hotRows } from '../store/hot.js';
import type { IssueExtras } from '../store/extras.js';
export type { IssueExtras } from '../store/extras.js';

export const ISSUE_STATES = ['opened', 'closed', 'all'] as const;
export const ISSUE_SCOPES = ['created-by-me', 'assigned-to-me', 'all'] as const;
export const ISSUE_ORDERS = ['created_at', 'updated_at'] as const;

export interface IssueFilters extends IssuableListFilters {
  state: (typeof ISSUE_STATES)[number];
}

/** Which issues the list covers: one project (readable, access known), a group, or all. */
export type IssueSource = { kind: 'project'; projectId: number; access: ProjectAccess } | { kind: 'group'; group: NamespaceRow } | { kind: 'all' };

/** Ids of the issues assigned to a user (non-correlated: SQLite builds the list once). */
function assignedTo(db: Conn, userId: number): Knex.QueryBuilder {
  return db('issue_assignees').select('issue_id').where('user_id', userId);
}

/**
 * The filters, as conditions SQLite can either check per row cheaply or drive the query from:
 * the sets (assignee, labels, reactions) are `IN (subquery)` rather than correlated EXISTS, so
 * they are built once per query instead of probed with a join for every issue scanned.
 */
function applyFilters(q: Knex.QueryBuilder, db: Conn, user: UserRow, f: IssueFilters, projectId: number | undefined): void {
  if (f.state !== 'all') q.where('i.state', f.state);
  if (f.scope === 'created-by-me') q.where('i.author_id', user.id);
  if (f.scope === 'assigned-to-me') q.whereIn('i.id', assignedTo(db, user.id));
  // An unknown (or 0) author or assignee id matches nothing, as the finder's failed lookup.
  if (f.authorId !== undefined) q.where('i.author_id', f.authorId);
  if (f.assigneeId !== undefined) q.whereIn('i.id', assignedTo(db, f.assigneeId));
  if (f.iids && f.iids.length) q.whereIn('i.iid', f.iids);
  if (f.myReactionEmoji) q.whereIn('i.id', awardedIds(db, 'Issue', user.id, f.myReactionEmoji));
  applySharedFilters(q, db, 'issue', 'i', f, projectId);
}

/**
 * Whether a filter keeps a small, indexed set of issues (an assignee, an author, labels, a
 * reaction, a milestone by title, a search the trigram index serves): the query then starts
 * from that set and sorts it, rather than walking the whole list in order and checking every
 * issue.
 */
function hasSetFilter(f: IssueFilters): boolean {
  const labelTitles = filtersByLabelTitles(f.labels);
  const milestoneSet = filtersByMilestone(f.milestone);
  // SQLite's FTS5 and PostgreSQL's pg_trgm indexes (migrations 000015, 000018) both serve it.
  const indexedSearch = f.search !== undefined && trigramMatch(f.search, ['title']) !== null;
  return f.scope !== 'all' || f.authorId !== undefined || f.assigneeId !== undefined || !!f.myReactionEmoji || labelTitles || milestoneSet || indexedSearch;
}

/**
 * Walking the list in order reads about (offset + page) * size / matches issues; starting from
 * the filter's set reads the matches and sorts them. The cheaper one wins (`size` is an upper
 * bound of the issues the list covers).
 */
function walkIsCheaper(page: Page, total: number, size: number): boolean {
  return (page.offset + page.perPage) * size < total * total;
}

/**
 * The list query: visible issues of the source, filtered and ordered (id breaks ties). It is
 * counted as it is; its page is read in the shape that suits the number of matches (see
 * `withPagingPlan`).
 *
 * SQLite has no statistics here and prefers an equality on `project_id` to any set: with a
 * selective filter the project condition is written `+i.project_id = ?` (no index), so the
 * count and a small page start from the set; with many matches the page adds the plain
 * condition back, and the (project_id, created_at|updated_at) index gives the order without a
 * sort. Lists over many projects join projects on `+i.project_id` for the ordered walk (the
 * issues drive, in index order, and stop after the page) and on `i.project_id` otherwise.
 */
export function issuesQuery(db: Conn, user: UserRow, source: IssueSource, f: IssueFilters): Knex.QueryBuilder {
  const setDriven = hasSetFilter(f) && !(f.iids && f.iids.length);
  const build = (walk: boolean) => {
    const q = db('issues as i').select('i.*');
    if (source.kind === 'project') {
      if (setDriven && !walk) q.whereRaw('+i.project_id = ?', [source.projectId]);
      else q.where('i.project_id', source.projectId);
      whereVisibleInProject(q, db, user, source.access, 'i');
    } else {
      if (walk) q.joinRaw('INNER JOIN projects AS p ON p.id = +i.project_id');
      else q.join('projects as p', 'p.id', 'i.project_id');
      if (source.kind === 'group') {
        q.whereIn('p.namespace_id', db('namespace_ancestors').select('namespace_id').where('ancestor_id', source.group.id));
      }
      whereVisibleIssues(q, db, user, 'i', 'p');
    }
    applyFilters(q, db, user, f, source.kind === 'project' ? source.projectId : undefined);
    return q.orderBy(`i.${f.orderBy}`, f.sort).orderBy('i.id', f.sort);
  };
  // The page's ids first (the sort or the walk handles ids, not whole rows), then its rows.
  const rowsOf = (ids: Knex.QueryBuilder, page: Page) =>
    db('issues as i')
      .select('i.*')
      .whereIn('i.id', ids.clearSelect().select('i.id').limit(page.perPage).offset(page.offset))
      .orderBy(`i.${f.orderBy}`, f.sort)
      .orderBy('i.id', f.sort);
  return withPagingPlan(countedUnder(build(false), ISSUABLE_LIST_TOPICS), {
    async page(query, page, total) {
      // Without a set filter the project list already walks its index.
      if (source.kind === 'project' && !setDriven) return rowsOf(query.clone(), page);
      if (!walkIsCheaper(page, total, await listSize(db, source))) return rowsOf(query.clone(), page);
      // The project list keeps the caller's additions to the query and adds the indexable
      // condition; the others are rebuilt with the join that lets issues drive.
      return rowsOf(source.kind === 'project' ? query.clone().where('i.project_id', source.projectId) : build(true), page);
    },
  });
}

/** An upper bound of the issues a list covers, cheap to read: the project's last iid, the highest id. */
async function listSize(db: Conn, source: IssueSource): Promise<number> {
  if (source.kind === 'project') {
    const row = await db('internal_ids').where({ project_id: source.projectId, usage: 'issues' }).first('last_value');
    return Number(row?.last_value ?? 0);
  }
  const row = await db('issues').max({ n: 'id' }).first();
  return Number((row as { n: number | null } | undefined)?.n ?? 0);
}

export async function findIssue(db: Conn, projectId: number, iid: number): Promise<IssueRow | undefined> {
  return db('issues').where({ project_id: projectId, iid }).first();
}

export async function assigneeIdsOf(db: Conn, issueId: number): Promise<number[]> {
  const rows: { user_id: number }[] = await db('issue_assignees').where({ issue_id: issueId }).orderBy('user_id').select('user_id');
  return rows.map((r) => r.user_id);
}

export async function loadIssueExtras(db: Conn, issues: IssueRow[]): Promise<IssueExtras> {
  const ids = issues.map((i) => i.id);
  const milestoneIds = [...new Set(issues.map((i) => i.milestone_id).filter((x): x is number => x !== null))];
  const projectIds = [...new Set(issues.map((i) => i.project_id))];
  const named = new Set<number>();
  for (const i of issues) {
    if (i.author_id !== null) named.add(i.author_id);
    if (i.closed_by_id !== null) named.add(i.closed_by_id);
  }
  // All in one round: the users (authors, closers and assignees) need not wait for the assignees.
  const [assigneeRows, milestoneRows, labels, projectRows, votes, userRows] = await Promise.all([
    ids.length ? hotRows(db, db('issue_assignees').whereIn('issue_id', ids).orderBy(['issue_id', 'user_id']).select('issue_id', 'user_id')) : [],
    milestoneIds.length ? hotRows(db, db('milestones').whereIn('id', milestoneIds)) : [],
    labelTitlesOf(db, 'issue', ids),
    projectIds.length ? hotRows(db, db('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').whereIn('p.id', projectIds).select('p.id', 'p.path', 'n.full_path')) : [],
    voteCounts(db, 'Issue', ids),
    ids.length
      ? hotRows(
          db,
          db('users')
            .whereIn('id', [...named])
            .orWhereIn('id', db('issue_assignees').select('user_id').whereIn('issue_id', ids)),
        )
      : [],
  ]);
  const assignees = new Map<number, number[]>();
  for (const r of assigneeRows as { issue_id: number; user_id: number }[]) {
    const list = assignees.get(r.issue_id) ?? [];
    list.push(r.user_id);
    assignees.set(r.issue_id, list);
  }
  return {
    users: new Map((userRows as UserRow[]).map((u) => [u.id, u])),
    assignees,
    milestones: new Map((milestoneRows as MilestoneRow[]).map((m) => [m.id, m])),
    labels,
    projectPaths: new Map((projectRows as { id: number; path: string; full_path: string }[]).map((p) => [p.id, `${p.full_path}/${p.path}`])),
    votes,
  };
}
