// The projects and milestones a search finds (GitLab 10.8's SearchResults#projects and
// #milestones): among the projects the user may see (ProjectsFinder, archived ones included),
// those whose path, name or description holds the term (`fuzzy_search`), newest first; and
// the milestones of those projects (with issues or merge requests on: milestones go with
// both, policy/projects.ts) whose title or description does, most recently updated first. A group's search keeps the projects inside the group's path (its subgroups' too,
// not the projects shared with it).
import type { Knex } from 'knex';
import type { Conn } from '../../store/db.js';
import type { NamespaceRow, UserRow } from '../../store/rows.js';
import { whereMilestonesReadable, whereVisibleProjects } from '../../policy/projects.js';
import { orFuzzyMatch, squish } from '../fuzzy.js';

/** Adds "one of `columns` matches the term" (nothing when the term is blank, as 10.8). */
export function whereFuzzy(q: Knex.QueryBuilder, columns: string[], term: string): Knex.QueryBuilder {
  if (squish(term) === '') return q;
  return q.where((w) => {
    for (const column of columns) orFuzzyMatch(w, column, term);
  });
}

function visibleProjectIds(db: Conn, user: UserRow, group: NamespaceRow | undefined, forMilestones = false): Knex.QueryBuilder {
  const q = (forMilestones ? whereMilestonesReadable : whereVisibleProjects)(db('projects').select('projects.id'), db, user);
  if (group) q.whereIn('projects.namespace_id', db('namespace_ancestors').select('namespace_id').where('ancestor_id', group.id));
  return q;
}

export function projectSearchQuery(db: Conn, user: UserRow, group: NamespaceRow | undefined, term: string): Knex.QueryBuilder {
  const q = db('projects')
    .select('projects.*')
    .whereIn('projects.id', visibleProjectIds(db, user, group));
  return whereFuzzy(q, ['projects.path', 'projects.name', 'projects.description'], term).orderBy('projects.id', 'desc');
}

function milestonesQuery(db: Conn, term: string): Knex.QueryBuilder {
  return whereFuzzy(db('milestones').select('milestones.*'), ['milestones.title', 'milestones.description'], term)
    .orderBy('milestones.updated_at', 'desc')
    .orderBy('milestones.id', 'desc');
}

/** Milestones of the projects the user sees with issues or merge requests on (of the group's, with one). */
export function milestoneSearchQuery(db: Conn, user: UserRow, group: NamespaceRow | undefined, term: string): Knex.QueryBuilder {
  return milestonesQuery(db, term).whereIn('milestones.project_id', visibleProjectIds(db, user, group, true));
}

/** Milestones of one project, whose readability the caller established. */
export function projectMilestoneSearchQuery(db: Conn, projectId: number, term: string): Knex.QueryBuilder {
  return milestonesQuery(db, term).where('milestones.project_id', projectId);
}
