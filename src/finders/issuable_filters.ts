// The filters issue and merge request lists share (GitLab 10.8's IssuableFinder): labels
// (all must match; `No Label`; `None`/`Any` of later GitLab), milestone (title,
// `No Milestone`, `#upcoming`, `#started`, `None`/`Any`), search and the four date bounds.
// Each filter becomes an `IN (subquery)` built once, not a check per scanned row.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import { isSqlite } from '../store/db.js';
import { hotRows } from '../store/hot.js';
import { orFuzzyMatch, squish, trigramMatch } from './fuzzy.js';

const NO_LABEL = new Set(['No Label', 'None']);
const NO_MILESTONE = new Set(['No Milestone', 'None']);

/** label_links.target_type of each issuable kind. */
export type LinkedType = 'issue' | 'merge_request';

/** The table of each kind, whose `<table>_search` trigram index serves searches (SQLite). */
const SEARCH_TABLE: Record<LinkedType, string> = { issue: 'issues', merge_request: 'merge_requests' };

export interface SharedFilters {
  labels?: string;
  milestone?: string;
  search?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

/** What both lists take besides their state (and, for merge requests, branches). */
export interface IssuableListFilters extends SharedFilters {
  scope: 'created-by-me' | 'assigned-to-me' | 'all';
  authorId?: number;
  assigneeId?: number;
  /** Targets the current user awarded this emoji name (10.8: the exact name, no None/Any). */
  myReactionEmoji?: string;
  iids?: number[];
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A label filter naming titles (not "none" or "any"): a small, indexed set of targets. */
export function filtersByLabelTitles(labels: string | undefined): boolean {
  return labels !== undefined && labels !== '' && !NO_LABEL.has(labels) && labels !== 'Any';
}

/** A milestone filter naming milestones (not "none" or "any"). */
export function filtersByMilestone(milestone: string | undefined): boolean {
  return milestone !== undefined && milestone !== '' && !NO_MILESTONE.has(milestone) && milestone !== 'Any';
}

/**
 * Ids of the targets carrying a label of every title (of the project, when the list is one):
 * each title's links are checked against the previous ones' ids inside the subquery, so only
 * the targets that have them all are looked up.
 */
function labelledWithAll(db: Conn, type: LinkedType, titles: string[], projectId: number | undefined): Knex.QueryBuilder {
  let ids: Knex.QueryBuilder | undefined;
  for (const title of titles) {
    const labelIds = db('labels').select('id').where('title', title);
    if (projectId !== undefined) labelIds.where('project_id', projectId);
    const next = db('label_links').select('target_id').whereIn('label_id', labelIds).where('target_type', type);
    if (ids) next.whereIn('target_id', ids);
    ids = next;
  }
  return ids as Knex.QueryBuilder;
}

/**
 * Applies the shared filters to a query on the targets under `alias` (`<alias>.id`,
 * `.milestone_id`, `.title`, `.description`, `.created_at`, `.updated_at`); `projectId`
 * narrows title lookups when the list is one project's.
 */
export function applySharedFilters(q: Knex.QueryBuilder, db: Conn, type: LinkedType, alias: string, f: SharedFilters, projectId?: number): void {
  if (f.labels !== undefined && f.labels !== '') {
    const linked = () => db('label_links as ll').select(db.raw('1')).where('ll.target_type', type).whereRaw(`ll.target_id = ${alias}.id`);
    if (NO_LABEL.has(f.labels)) q.whereNotExists(linked());
    else if (f.labels === 'Any') q.whereExists(linked());
    else q.whereIn(`${alias}.id`, labelledWithAll(db, type, [...new Set(f.labels.split(',').map((t) => t.trim()))], projectId));
  }
  if (f.milestone !== undefined && f.milestone !== '') {
    const column = `${alias}.milestone_id`;
    if (NO_MILESTONE.has(f.milestone)) q.whereNull(column);
    else if (f.milestone === 'Any') q.whereNotNull(column);
    else if (f.milestone === '#upcoming') {
      // Per project, the active milestone(s) with the earliest due date still to come.
      const day = today();
      q.whereIn(
        column,
        db('milestones as um')
          .select('um.id')
          .where('um.state', 'active')
          .where('um.due_date', '>', day)
          .whereRaw("um.due_date = (SELECT MIN(u2.due_date) FROM milestones u2 WHERE u2.project_id = um.project_id AND u2.state = 'active' AND u2.due_date > ?)", [day]),
      );
    } else if (f.milestone === '#started') {
      q.whereIn(column, db('milestones as sm').select('sm.id').where('sm.start_date', '<=', today()));
    } else {
      const titled = db('milestones as tm').select('tm.id').where('tm.title', f.milestone);
      if (projectId !== undefined) titled.where('tm.project_id', projectId);
      q.whereIn(column, titled);
    }
  }
  const search = squish(f.search ?? '');
  if (search !== '') {
    // SQLite: the trigram index (migration 000015) finds the candidates; for ASCII words it
    // answers exactly what LIKE would, other words are checked again with LIKE. PostgreSQL:
    // its pg_trgm indexes (migration 000018) serve the LIKE conditions themselves.
    const match = isSqlite(db) ? trigramMatch(search, ['title', 'description']) : null;
    if (match) {
      const index = `${SEARCH_TABLE[type]}_search`;
      q.whereRaw(`${alias}.id IN (SELECT rowid FROM ${index} WHERE ${index} MATCH ?)`, [match]);
    }
    if (!match || !/^[\x20-\x7e]*$/.test(search)) {
      q.where((w) => {
        orFuzzyMatch(w, `${alias}.title`, search);
        orFuzzyMatch(w, `${alias}.description`, search);
      });
    }
  }
  if (f.createdAfter) q.where(`${alias}.created_at`, '>=', f.createdAfter);
  if (f.createdBefore) q.where(`${alias}.created_at`, '<=', f.createdBefore);
  if (f.updatedAfter) q.where(`${alias}.updated_at`, '>=', f.updatedAfter);
  if (f.updatedBefore) q.where(`${alias}.updated_at`, '<=', f.updatedBefore);
}

/** The label titles of each target (sorted, as GitLab lists them): one query for a page. */
export async function labelTitlesOf(db: Conn, type: LinkedType, ids: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const rows = await hotRows<{ target_id: number; title: string }>(
    db,
    db('label_links as ll').join('labels as l', 'l.id', 'll.label_id').where('ll.target_type', type).whereIn('ll.target_id', ids).select('ll.target_id', 'l.title'),
  );
  for (const r of rows) {
    const list = out.get(r.target_id) ?? [];
    list.push(r.title);
    out.set(r.target_id, list);
  }
  for (const list of out.values()) list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}
