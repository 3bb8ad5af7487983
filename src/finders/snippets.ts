// Snippet lists and lookups (GitLab 10.8's SnippetsFinder), newest first (`fresh`, ties by id):
// - a project's snippets as the user's position shows them (policy/snippets.ts
//   listedSnippetLevels: members all, others by visibility), which single lookups of the
//   project snippets API go through too;
// - the user's own snippets (`/snippets`): personal ones and those of projects they still see
//   with snippets on;
// - public snippets (`/snippets/public`): personal ones and those of such projects.
// A snippet of the project regardless of visibility (notes, award emoji and user agent
// details look it up so, and ask the snippet policy themselves).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { ProjectAccess } from '../policy/projects.js';
import type { SnippetContext, SnippetRow, UserAgentDetailRow } from '../store/snippet_rows.js';
import { PUBLIC } from '../policy/levels.js';
import { listedSnippetLevels, whereSnippetProjectAvailable } from '../policy/snippets.js';

function fresh(q: Knex.QueryBuilder): Knex.QueryBuilder {
  return q.orderBy([
    { column: 'snippets.created_at', order: 'desc' },
    { column: 'snippets.id', order: 'desc' },
  ]);
}

/** The project's snippets the user's lists show. */
export function projectSnippetsQuery(db: Conn, user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): Knex.QueryBuilder {
  const q = db('snippets').select('snippets.*').where({ 'snippets.project_id': project.id, 'snippets.type': 'ProjectSnippet' });
  const levels = listedSnippetLevels(user, project, access);
  if (levels !== 'all') q.whereIn('snippets.visibility_level', levels);
  return fresh(q);
}

/** One of the project's snippets, if the user's lists show it. */
export async function findListedProjectSnippet(db: Conn, user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, id: number): Promise<SnippetRow | undefined> {
  return projectSnippetsQuery(db, user, project, access).where('snippets.id', id).first();
}

/** One of the project's snippets, whatever its visibility. */
export async function findProjectSnippet(db: Conn, projectId: number, id: number): Promise<SnippetRow | undefined> {
  return db('snippets').where({ id, project_id: projectId, type: 'ProjectSnippet' }).first();
}

/** The user's own snippets (personal, and of the projects they see with snippets on). */
export function ownSnippetsQuery(db: Conn, user: UserRow): Knex.QueryBuilder {
  const q = db('snippets').select('snippets.*').where('snippets.author_id', user.id);
  return fresh(whereSnippetProjectAvailable(q, db, user));
}

/** Public snippets: personal ones and those of projects the user sees with snippets on. */
export function publicSnippetsQuery(db: Conn, user: UserRow | null): Knex.QueryBuilder {
  const q = db('snippets').select('snippets.*').where('snippets.visibility_level', PUBLIC);
  return fresh(whereSnippetProjectAvailable(q, db, user));
}

export async function findOwnSnippet(db: Conn, user: UserRow, id: number): Promise<SnippetRow | undefined> {
  return ownSnippetsQuery(db, user).where('snippets.id', id).first();
}

export async function findSnippet(db: Conn, id: number): Promise<SnippetRow | undefined> {
  return db('snippets').where({ id }).first();
}

export async function findUserAgentDetail(db: Conn, snippetId: number): Promise<UserAgentDetailRow | undefined> {
  return db('snippet_user_agent_details').where({ snippet_id: snippetId }).first();
}

/** What rendering a page of snippets needs: their authors and their projects' full paths. */

/** Loads the authors and project paths of these snippets (two queries, whatever their number). */
export async function loadSnippetContext(db: Conn, snippets: SnippetRow[]): Promise<SnippetContext> {
  const userIds = [...new Set(snippets.map((s) => s.author_id))];
  const projectIds = [...new Set(snippets.map((s) => s.project_id).filter((id): id is number => id !== null))];
  const [users, projects] = await Promise.all([
    userIds.length ? (db('users').whereIn('id', userIds) as Promise<UserRow[]>) : Promise.resolve([] as UserRow[]),
    projectIds.length
      ? (db('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').whereIn('p.id', projectIds).select('p.id', 'p.path', 'n.full_path') as Promise<
          { id: number; path: string; full_path: string }[]
        >)
      : Promise.resolve([]),
  ]);
  return {
    users: new Map(users.map((u) => [u.id, u])),
    projectPaths: new Map(projects.map((p) => [p.id, `${p.full_path}/${p.path}`])),
  };
}
