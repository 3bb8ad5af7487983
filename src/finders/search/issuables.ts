// The issues and merge requests a search finds (GitLab 10.8's SearchResults#issues and
// #merge_requests): those the user may read (the issue and merge request finders' visibility:
// confidential issues, private projects, the features turned off), whose title or description
// holds the term (`full_search`: every word of three characters or more, case-insensitively,
// `%` and `_` literal), most recently updated first. A term ending in `#<number>` (or
// `!<number>` for merge requests) finds that iid instead, as 10.8 did.
import type { Knex } from 'knex';
import type { Conn } from '../../store/db.js';
import type { NamespaceRow, UserRow } from '../../store/rows.js';
import type { ProjectAccess } from '../../policy/projects.js';
import { issuesQuery, type IssueFilters } from '../issues.js';
import { mergeRequestsQuery, type MergeRequestFilters } from '../merge_requests.js';

/** Where a search looks: one project (readable, access known), a group's projects, or all. */
export type SearchSource = { kind: 'project'; projectId: number; access: ProjectAccess } | { kind: 'group'; group: NamespaceRow } | { kind: 'all' };

function isDigits(s: string): boolean {
  if (s === '') return false;
  for (const c of s) if (c < '0' || c > '9') return false;
  return true;
}

/** The iid of a term ending in one of `markers` and digits (`#12`, `!12`), else null. */
function iidReference(term: string, markers: string): number | null {
  const at = Math.max(...[...markers].map((m) => term.lastIndexOf(m)));
  if (at < 0 || !isDigits(term.slice(at + 1))) return null;
  const iid = Number(term.slice(at + 1));
  return Number.isSafeInteger(iid) && iid <= 2147483647 ? iid : 0;
}

function termFilters(term: string, markers: string): Pick<IssueFilters, 'search' | 'iids' | 'scope' | 'orderBy' | 'sort'> {
  const iid = iidReference(term, markers);
  return { scope: 'all', orderBy: 'updated_at', sort: 'desc', ...(iid === null ? { search: term } : { iids: [iid] }) };
}

export function issueSearchQuery(db: Conn, user: UserRow, source: SearchSource, term: string): Knex.QueryBuilder {
  return issuesQuery(db, user, source, { state: 'all', ...termFilters(term, '#') });
}

export function mergeRequestSearchQuery(db: Conn, user: UserRow, source: SearchSource, term: string): Knex.QueryBuilder {
  const filters: MergeRequestFilters = { state: 'all', ...termFilters(term, '#!') };
  if (source.kind === 'project') return mergeRequestsQuery(db, user, { kind: 'project', projectId: source.projectId }, filters);
  const q = mergeRequestsQuery(db, user, { kind: 'all' }, filters);
  if (source.kind === 'group') q.whereIn('p.namespace_id', db('namespace_ancestors').select('namespace_id').where('ancestor_id', source.group.id));
  return q;
}
