// What the repository read routes share (GitLab 10.8 repositories.rb, commits.rb, tags.rb and
// the GET half of files.rb): each declares REPOSITORY_READ, so mount loads the project (404
// when unseen) and checks `download_code` before any parameter — Grape's
// `before { authorize! :download_code, user_project }` — and the handler opens the repository
// with `repositoryOf`.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { gitdirOf } from '../finders/projects.js';
import { RepoReader } from '../git/reader.js';

/** Spread into a route: anyone (the project's visibility decides), the project of `:id`, download_code. */
export const REPOSITORY_READ = { auth: 'anonymous', load: 'project', ability: 'download_code' } as const;

/** The reader of the project's bare repository. */
export function repositoryOf(deps: Deps, project: ProjectWithNamespace): RepoReader {
  return new RepoReader(gitdirOf(deps.repos, project));
}

/** The ref a route uses when none is given: the default branch, else the branch HEAD names. */
export async function defaultRef(project: ProjectWithNamespace, reader: RepoReader): Promise<string> {
  return project.default_branch ?? (await reader.headBranch()) ?? 'master';
}
