// Resolving the `:id` of project and group routes, with the visibility answer GitLab gives:
// a project or group the user may not see does not exist (404), never 403.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { currentUser } from '../../http/auth.js';
import { requestEpochs } from '../../http/request_settings.js';
import { forbidden, notFound, recordNotFound, unauthorized } from '../../http/errors.js';
import { coerceInteger } from '../../http/params.js';
import { findProjectForRequest, type RequestProject } from '../../finders/projects.js';
import { EpochCache, perStore } from '../../store/cache_epochs.js';
import { emptyExtras, type ProjectExtras } from '../../finders/project_extras.js';
import { findGroupByIdOrPath } from '../../finders/groups.js';
import { canReadProject, type ProjectAccess } from '../../policy/projects.js';
import { groupFacts } from '../../policy/groups.js';
import { can, projectSubject, type GroupSubject, type MergeRequestSubject, type ProjectAbility, type ProjectSubject } from '../../policy/can.js';
import { targetBranchFacts } from '../../policy/merge_requests.js';
import { findMergeRequest } from '../../finders/merge_requests.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';

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
 * Projects as loaded for a user, per process, while nothing the load reads has changed: the
 * project and its namespace (`projects`), the user's memberships, shares and ancestry
 * (`memberships`), the owner shown (`users`). Every write to those tables moves an epoch in
 * its transaction (store/cache_epochs.ts), so no worker serves a removed member or a moved
 * project past the writer's commit. Entries are shared: nobody changes them.
 */
const requestProjectsOf = perStore(() => new EpochCache<string, RequestProject | null>(['projects', 'memberships', 'users'], 20_000));

/**
 * The project of `ctx.params.id` (or another param), readable by the current user, or 404:
 * the project, its namespace and the user's access in one query (finders/projects.ts), or
 * none while the cache above holds it.
 */
export async function loadProject(ctx: Koa.Context, deps: Deps, param = 'id'): Promise<LoadedProject> {
  const user = currentUser(ctx);
  const idOrPath = decodeParam(ctx.params[param]);
  const epochs = await requestEpochs(ctx, deps);
  const key = `${user ? user.id : 0}:${idOrPath.toLowerCase()}`;
  const requestProjects = requestProjectsOf(deps.db);
  let found = requestProjects.peek(key, epochs);
  if (found === undefined) {
    found = (await findProjectForRequest(deps.db, user, idOrPath)) ?? null;
    if (found) freeze(found);
    requestProjects.set(key, epochs, found);
  }
  if (!found || !canReadProject(user, found.project, found.access)) throw notFound('Project');
  return loadedProject(found.project, found.access, user, found.extras);
}

function freeze(found: RequestProject): void {
  Object.freeze(found.project.namespace);
  Object.freeze(found.project);
  Object.freeze(found.access);
  Object.freeze(found.extras);
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

/**
 * The merge request of `ctx.params.merge_request_iid` in the loaded project, or `404 Not
 * found` (GitLab's find_project_merge_request: no read check of its own; an iid that is not a
 * number too, which 10.8 does not declare). Its policy subject carries the target branch and
 * the project's branch rules, which merge_merge_request decides from.
 */
export async function loadMergeRequestItem(ctx: Koa.Context, deps: Deps, loaded: LoadedProject): Promise<{ mergeRequest: MergeRequestRow; subject: MergeRequestSubject }> {
  let iid: number;
  try {
    iid = coerceInteger(ctx.params.merge_request_iid);
  } catch {
    throw recordNotFound();
  }
  const mergeRequest = await findMergeRequest(deps.db, loaded.project.id, iid);
  if (!mergeRequest) throw recordNotFound();
  const targetBranch = await targetBranchFacts(deps.db, loaded.project, mergeRequest);
  return { mergeRequest, subject: { kind: 'merge_request', project: loaded.project, access: loaded.access, mergeRequest, targetBranch } };
}
