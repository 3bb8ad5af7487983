// Rendering projects in a response: the extras a view shows are loaded by the finder (one
// query per kind for a page), then the entity renders each project without a query.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { loadOnDemandExtras, loadProjectExtras, type ProjectExtras } from '../finders/project_extras.js';
import { defaultView, projectEntity, type PresentOptions } from '../entities/project.js';

/** Renders projects in the requested view; the order of `projects` is kept. */
export async function presentProjects(deps: Deps, user: UserRow | null, projects: ProjectWithNamespace[], opts: PresentOptions = {}) {
  const view = defaultView(!!user, opts);
  const extras = await loadProjectExtras(deps.db, user, projects, {
    full: view !== 'basic',
    access: view === 'withAccess',
    statistics: opts.statistics,
    customAttributes: opts.customAttributes,
  });
  return projects.map((p) => projectEntity(deps.urls, p, extras, view, opts));
}

/**
 * One project. `known`: the extras loaded with the project by the request's loader
 * (api/core/loaders.ts), complete for this user; only statistics and custom attributes, when
 * asked for, cost a query then.
 */
export async function presentProject(deps: Deps, user: UserRow | null, project: ProjectWithNamespace, opts: PresentOptions = {}, known?: ProjectExtras) {
  if (!known) return (await presentProjects(deps, user, [project], opts))[0];
  const view = defaultView(!!user, opts);
  let extras = known;
  if (opts.statistics || opts.customAttributes) {
    // `known` may be shared (the request cache of api/core/loaders.ts): add to a copy.
    extras = { ...known, stats: new Map(), attributes: new Map() };
    await loadOnDemandExtras(deps.db, [project.id], { full: true, access: true, statistics: opts.statistics, customAttributes: opts.customAttributes }, extras);
  }
  return projectEntity(deps.urls, project, extras, view, opts);
}
