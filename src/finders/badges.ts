// Badges as GitLab 10.8 lists them, oldest first (Badge's default scope): a group's own, and a
// project's own with those of its group and the group's ancestors (Project#badges); one badge of
// such a list; and the project a group's badges render with (the first project the group
// projects finder shows the user: the group's newest visible project).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { BadgeRow } from '../store/badge_rows.js';
import { whereVisibleProjects } from '../policy/projects.js';
import { findProjectByIdOrPath } from './projects.js';

function oldestFirst(q: Knex.QueryBuilder): Knex.QueryBuilder {
  return q.orderBy([
    { column: 'created_at', order: 'asc' },
    { column: 'id', order: 'asc' },
  ]);
}

export function groupBadgesQuery(db: Conn, groupId: number): Knex.QueryBuilder {
  return oldestFirst(db('badges').where({ type: 'GroupBadge', group_id: groupId }));
}

export function projectBadgesQuery(db: Conn, project: ProjectWithNamespace): Knex.QueryBuilder {
  const q = db('badges').where((w) => {
    w.where({ type: 'ProjectBadge', project_id: project.id });
    if (project.namespace.kind === 'group') {
      w.orWhere((g) => g.where('type', 'GroupBadge').whereIn('group_id', db('namespace_ancestors').select('ancestor_id').where('namespace_id', project.namespace_id)));
    }
  });
  return oldestFirst(q);
}

export async function findGroupBadge(db: Conn, groupId: number, id: number): Promise<BadgeRow | undefined> {
  return groupBadgesQuery(db, groupId).where({ id }).first();
}

export async function findProjectBadge(db: Conn, project: ProjectWithNamespace, id: number): Promise<BadgeRow | undefined> {
  return projectBadgesQuery(db, project).where({ id }).first();
}

/** The group's newest project the user sees, or undefined. */
export async function badgeProjectOfGroup(db: Conn, user: UserRow | null, groupId: number): Promise<ProjectWithNamespace | undefined> {
  const q = db('projects').where('projects.namespace_id', groupId).orderBy('projects.id', 'desc').first('projects.id');
  const row = (await whereVisibleProjects(q, db, user)) as { id: number } | undefined;
  return row ? findProjectByIdOrPath(db, String(row.id)) : undefined;
}
