// Resolving the `:id` of project and group routes, with the visibility answer GitLab gives:
// a project or group the user may not see does not exist (404), never 403.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { NamespaceRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { currentUser } from '../http/auth.js';
import { forbidden, notFound, unauthorized } from '../http/errors.js';
import { findProjectForRequest } from '../finders/projects.js';
import { emptyExtras, type ProjectExtras } from '../finders/project_extras.js';
import { findGroupByIdOrPath } from '../finders/groups.js';
import { canReadProject, type ProjectAccess } from '../policy/projects.js';
import { canReadGroup, groupFacts } from '../policy/groups.js';
import { can, projectSubject, type GroupSubject, type ProjectAbility, type ProjectSubject } from '../policy/can.js';

export interface LoadedProject {
  project: ProjectWithNamespace;
  access: ProjectAccess;
  user: UserRow | null;
  /** The policy subject: `can(user, loaded.subject, ability)`. */
  subject: ProjectSubject;
  /** Throws unless the user has the ability: 401 when nobody is signed in, else 403. */
  authorize(ability: ProjectAbility): void;
  can(ability: ProjectAbility): boolean;
  /** What the project's answer shows besides its row, loaded with it (finders/project_extras.ts). */
  extras: ProjectExtras;
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The project of `ctx.params.id` (or another param), readable by the current user, or 404:
 * the project, its namespace and the user's access in one query (finders/projects.ts).
 */
export async function loadProject(ctx: Koa.Context, deps: Deps, param = 'id'): Promise<LoadedProject> {
  const user = currentUser(ctx);
  const found = await findProjectForRequest(deps.db, user, decodeParam(ctx.params[param]));
  if (!found || !canReadProject(user, found.project, found.access)) throw notFound('Project');
  return loadedProject(found.project, found.access, user, found.extras);
}

/** A project with a user's access to it (services acting for another project or user use it too). */
export function loadedProject(project: ProjectWithNamespace, access: ProjectAccess, user: UserRow | null, extras?: ProjectExtras): LoadedProject {
  const subject = projectSubject(project, access);
  return {
    project,
    access,
    user,
    subject,
    extras: extras ?? emptyExtras(),
    can: (ability) => can(user, subject, ability),
    authorize(ability) {
      if (!can(user, subject, ability)) throw user ? forbidden() : unauthorized();
    },
  };
}

/** The group of `ctx.params.id`, readable by the current user, or 404. */
export async function loadGroup(ctx: Koa.Context, deps: Deps, param = 'id'): Promise<NamespaceRow> {
  const group = await findGroupByIdOrPath(deps.db, decodeParam(ctx.params[param]));
  if (!group || !(await canReadGroup(deps.db, currentUser(ctx), group))) throw notFound('Group');
  return group;
}

/** The group of `ctx.params.id` as a policy subject (the user's level on it), readable, or 404. */
export async function loadGroupSubject(ctx: Koa.Context, deps: Deps, param = 'id'): Promise<GroupSubject> {
  return groupSubjectOf(deps, currentUser(ctx), decodeParam(ctx.params[param]));
}

/** The group of an id or full path as a policy subject, readable by `user`, or 404 Group Not Found. */
export async function groupSubjectOf(deps: Deps, user: UserRow | null, idOrPath: string): Promise<GroupSubject> {
  const group = await findGroupByIdOrPath(deps.db, idOrPath);
  if (!group) throw notFound('Group');
  const facts = await groupFacts(deps.db, user, group);
  if (!facts.readable) throw notFound('Group');
  return { kind: 'group', ...facts };
}
