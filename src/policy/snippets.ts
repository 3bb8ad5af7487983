// Who may see and change snippets (GitLab 10.8's ProjectSnippetPolicy, PersonalSnippetPolicy,
// the snippet abilities of ProjectPolicy, and SnippetsFinder's visibility). The only place
// these decisions are made.
//
// Project snippets:
// - read_project_snippet / create_project_snippet on the project: whoever reads the project
//   (guest abilities, or the public's) / reporters and up, and admins; never with the snippets
//   feature off, even for admins (GitLab's `prevent`).
// - on one snippet: whoever reads the project's snippets reads a public snippet, and an
//   internal one unless external; a private one only members, its author and admins. Its
//   author and admins update and delete it, masters too unless it is internal (GitLab's rule).
// - lists (SnippetsFinder with a project): members see every snippet of the project, others
//   those whose visibility their position opens (admins all, externals public ones, signed-in
//   users internal and public) — so a non-member author of a private snippet does not see it.
// Personal snippets: the public's, internal ones for signed-in regular users, and the author's
// own; only the author changes them. A project snippet has no personal-snippet abilities
// (GitLab asks them of its ProjectSnippetPolicy, which has none).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { SnippetType } from '../store/snippet_rows.js';
import { GUEST, INTERNAL, MASTER, PRIVATE, PUBLIC, REPORTER } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { authorizedProjectIds, canReadProject, maxLevel, whereVisibleProjects, type ProjectAccess } from './projects.js';

/** What the rules need of one snippet. */
export interface SnippetFacts {
  type: SnippetType;
  author_id: number;
  visibility_level: number;
}

export type ProjectSnippetAbility = 'read_project_snippet' | 'update_project_snippet' | 'admin_project_snippet';
export type PersonalSnippetAbility = 'read_personal_snippet' | 'update_personal_snippet' | 'destroy_personal_snippet' | 'admin_personal_snippet' | 'comment_personal_snippet';

function active(user: UserRow | null): user is UserRow {
  return !!user && user.state !== 'blocked';
}

/** GitLab's `external_user` condition: nobody signed in, or an external user. */
function externalUser(user: UserRow | null): boolean {
  return !user || !!user.external;
}

function isMember(access: ProjectAccess): boolean {
  return maxLevel(access) >= GUEST;
}

/** ProjectPolicy's read_project_snippet: the project is readable and its snippets are on. */
export function canReadProjectSnippets(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (user && user.state === 'blocked') return false;
  return !!project.snippets_enabled && canReadProject(user, project, access);
}

/** ProjectPolicy's create_project_snippet: reporters and up (admins), snippets on. */
export function canCreateProjectSnippet(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (!active(user) || !project.snippets_enabled) return false;
  return isAdmin(user) || maxLevel(access) >= REPORTER;
}

/** One snippet of the project (policy-internal: callers outside policy/ use `can()`). */
export function projectSnippetCan(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, snippet: SnippetFacts, ability: ProjectSnippetAbility): boolean {
  if (!canReadProjectSnippets(user, project, access)) return false;
  const author = !!user && snippet.author_id === user.id;
  if (author || isAdmin(user)) return true;
  const internal = snippet.visibility_level === INTERNAL;
  if (ability === 'read_project_snippet') {
    const closed = snippet.visibility_level === PRIVATE || (internal && externalUser(user));
    return !closed || isMember(access);
  }
  if (!active(user) || internal) return false;
  return maxLevel(access) >= MASTER;
}

/**
 * SnippetsFinder for a project: the visibility levels of the project's snippets the user's
 * lists (and single lookups) show; 'all' for members, none when the project's snippets are
 * not readable.
 */
export function listedSnippetLevels(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): number[] | 'all' {
  if (!canReadProjectSnippets(user, project, access)) return [];
  if (isMember(access)) return 'all';
  return levelsForUser(user);
}

/** Gitlab::VisibilityLevel.levels_for_user. */
function levelsForUser(user: UserRow | null): number[] {
  if (isAdmin(user)) return [PRIVATE, INTERNAL, PUBLIC];
  return isSignedInRegular(user) ? [INTERNAL, PUBLIC] : [PUBLIC];
}

/** PersonalSnippetPolicy (policy-internal: callers outside policy/ use `can()`). */
export function personalSnippetCan(user: UserRow | null, snippet: SnippetFacts, ability: PersonalSnippetAbility): boolean {
  if (snippet.type !== 'PersonalSnippet' || (user && user.state === 'blocked')) return false;
  const author = !!user && snippet.author_id === user.id;
  if (author) return true;
  if (ability !== 'read_personal_snippet' && ability !== 'comment_personal_snippet') return false;
  if (ability === 'comment_personal_snippet' && !user) return false;
  if (snippet.visibility_level === PUBLIC) return true;
  return snippet.visibility_level === INTERNAL && !externalUser(user);
}

/** GlobalPolicy's create_personal_snippet: signed in and not external. */
export function canCreatePersonalSnippet(user: UserRow | null): boolean {
  return active(user) && !user.external;
}

/**
 * SnippetsFinder without a project: restricts a query on `snippets` (under `alias`) to personal
 * snippets and those of projects the user may see with snippets on. The caller adds the
 * author or visibility condition of its list.
 */
export function whereSnippetProjectAvailable(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'snippets'): Knex.QueryBuilder {
  const projects = whereVisibleProjects(db('projects').select('projects.id').where('projects.snippets_enabled', true), db, user);
  return q.where((w) => w.whereNull(`${alias}.project_id`).orWhereIn(`${alias}.project_id`, projects));
}

/**
 * `EXISTS` subquery: the project snippet of `snippetIdColumn` is one the user's lists show
 * (listedSnippetLevels as SQL), its project under `projectAlias` being readable already.
 */
export function snippetListed(db: Conn, user: UserRow | null, snippetIdColumn: string, projectAlias: string): Knex.QueryBuilder {
  const q = db('snippets as evs').select(db.raw('1')).whereRaw(`evs.id = ${snippetIdColumn}`).where(`${projectAlias}.snippets_enabled`, true);
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.whereIn('evs.visibility_level', levelsForUser(user));
    if (user) w.orWhereIn(`${projectAlias}.id`, authorizedProjectIds(db, user.id));
  });
}

/**
 * SnippetsFinder without a project or author (what 10.8's snippet search reads): personal
 * snippets and those of projects the user may see with snippets on, and of those the ones
 * whose visibility the user's position opens, or in a project they are a member of, or their own.
 */
export function whereReadableSnippets(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'snippets'): Knex.QueryBuilder {
  if (user && user.state === 'blocked') return q.whereRaw('1 = 0');
  whereSnippetProjectAvailable(q, db, user, alias);
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.whereIn(`${alias}.visibility_level`, levelsForUser(user));
    if (user) w.orWhere(`${alias}.author_id`, user.id).orWhereIn(`${alias}.project_id`, authorizedProjectIds(db, user.id));
  });
}
