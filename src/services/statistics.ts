// Project statistics kept in `project_statistics`, refreshed after every repository write
// (never computed per request): commits on the default branch, and bytes on disk.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { fullPathOf } from '../finders/projects.js';
import { countCommits } from '../git/history.js';
import { readRef } from '../git/refs.js';
import { now } from '../store/time.js';

/** Recounts the default branch (cheap when only new commits were added) and sizes the repository. */
export async function refreshStatistics(deps: Deps, project: ProjectWithNamespace): Promise<void> {
  const fullPath = fullPathOf(project);
  const gitdir = deps.repos.pathFor(fullPath);
  const head = project.default_branch ? await readRef(gitdir, `refs/heads/${project.default_branch}`) : null;
  const commitCount = head ? await countCommits(gitdir, head) : 0;
  const repositorySize = await deps.repos.size(fullPath);
  const values = { commit_count: commitCount, repository_size: repositorySize, updated_at: now() };
  const updated = await deps.db('project_statistics').where({ project_id: project.id }).update(values);
  if (!updated) await deps.db('project_statistics').insert({ project_id: project.id, ...values });
}
