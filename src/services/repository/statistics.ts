// Project statistics kept in `project_statistics`, refreshed after every repository write
// (never computed per request): commits on the default branch, and bytes on disk. After a git
// push they are refreshed by a background job (GitLab's ProjectCacheWorker, queue
// project_cache: a history walk takes over a second on a first push of thousands of
// commits); pushes meanwhile coalesce into the one refresh still waiting to start.
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import { enqueueJob } from '../../store/job_queue.js';
import { findProjectByIdOrPath, fullPathOf } from '../../finders/projects.js';
import { countCommits } from '../../git/history.js';
import { readRef } from '../../git/refs.js';
import { now } from '../../store/time.js';

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

/** The job kind that refreshes a project's statistics in the background. */
export const PROJECT_CACHE_JOB = 'project_cache';

/** Queues a refresh of the project's statistics, unless one is already waiting to start. */
export async function queueStatisticsRefresh(db: Conn, projectId: number): Promise<void> {
  await enqueueJob(db, PROJECT_CACHE_JOB, { projectId }, { queue: 'project_cache', uniqueKey: `project_cache:${projectId}`, uniqueUntil: 'started' });
}

/** The job's work: the project as it is now (nothing when it was deleted meanwhile). */
export async function refreshStatisticsOf(deps: Deps, projectId: number): Promise<boolean> {
  const project = await findProjectByIdOrPath(deps.db, String(projectId));
  if (!project || !deps.repos.exists(fullPathOf(project))) return false;
  await refreshStatistics(deps, project);
  return true;
}
