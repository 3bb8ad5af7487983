// The project of a repository read route, checked for `download_code` before any parameter
// (as GitLab's `before { authorize! :download_code, user_project }`), with its reader.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { loadProject, type LoadedProject } from './loaders.js';
import { fullPathOf } from '../finders/projects.js';
import { RepoReader } from '../git/reader.js';

export interface RepoContext {
  loaded: LoadedProject;
  reader: RepoReader;
}

export async function loadRepository(ctx: Koa.Context, deps: Deps): Promise<RepoContext> {
  const loaded = await loadProject(ctx, deps);
  loaded.authorize('download_code');
  return { loaded, reader: new RepoReader(deps.repos.pathFor(fullPathOf(loaded.project))) };
}

/** The ref a route uses when none is given: the default branch, else the branch HEAD names. */
export async function defaultRef(repo: RepoContext): Promise<string> {
  return repo.loaded.project.default_branch ?? (await repo.reader.headBranch()) ?? 'master';
}
