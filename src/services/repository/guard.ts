// Every write to a project's repository and every change of where it lives goes through here:
// the project's repository lock (git/lock.ts, shared by all Wharf processes), an interrupted
// move or delete of the project settled first (repository/recovery.ts), then the project row
// read again, because the project may have been renamed, transferred or deleted while the
// request was on its way. A write aimed at a folder that is not the project's any more stops
// cleanly: 404 Project Not Found when the project is gone, 409 when it moved. It never
// re-creates the folder (the git layer throws RepositoryGoneError instead of mkdir -p), so
// a 201 means the commit is in the repository the project row names.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import { Conflict, DomainError, NotFound } from '../../store/domain_errors.js';
import { findProjectByIdOrPath, gitdirOf } from '../../finders/projects.js';
import { LockTimeoutError } from '../../git/lock.js';
import { RepositoryGoneError } from '../../git/repo_gone.js';
import { projectLockKey, recoverRepositories, settleJournal } from './recovery.js';

const MOVED_MESSAGE = 'The project was moved or renamed while the change was being written. Please refresh and try again.';
const BUSY_MESSAGE = 'The repository is busy. Please try again.';

function repositoryMoved(): Conflict {
  return new Conflict(MOVED_MESSAGE);
}

/** Runs `fn` holding the repository lock of project `id`, after settling its journal. */
export async function withProjectLock<T>(deps: Deps, id: number, fn: () => Promise<T>): Promise<T> {
  let entered = false;
  try {
    return await deps.repos.locks.run(projectLockKey(id), async () => {
      entered = true;
      await settleJournal(deps, id);
      return fn();
    });
  } catch (err) {
    if (!entered && err instanceof LockTimeoutError) throw new Conflict(BUSY_MESSAGE);
    throw err;
  }
}

/** Holds the locks of several projects (ascending ids, so that two callers cannot deadlock). */
export async function withProjectLocks<T>(deps: Deps, ids: number[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const step = (i: number): Promise<T> => (i === sorted.length ? fn() : withProjectLock(deps, sorted[i], () => step(i + 1)));
  return step(0);
}

/** Why a repository is not where `project` said: 404 when the project is gone, else 409. */
async function repositoryGone(deps: Deps, project: ProjectWithNamespace): Promise<Conflict | NotFound> {
  const current = await findProjectByIdOrPath(deps.db, String(project.id));
  return current ? repositoryMoved() : new NotFound('Project');
}

/** Runs a write on `project`'s repository, turning a folder that vanished before or during it into 404 or 409. */
export async function whileRepositoryExists<T>(deps: Deps, project: ProjectWithNamespace, fn: (gitdir: string) => Promise<T>): Promise<T> {
  const gitdir = gitdirOf(deps.repos, project);
  try {
    if (!fs.existsSync(path.join(gitdir, 'HEAD'))) throw new RepositoryGoneError(gitdir);
    return await fn(gitdir);
  } catch (err) {
    // Also a read that failed because the folder went away under it (object not found).
    const vanished = !(err instanceof DomainError) && !fs.existsSync(path.join(gitdir, 'HEAD'));
    if (err instanceof RepositoryGoneError || vanished) throw await repositoryGone(deps, project);
    throw err;
  }
}

/**
 * Runs `fn` under the project's repository lock, once the row is known to still name the
 * folder `project` named: the step of a write that moves refs or HEAD.
 */
export async function withProjectRepository<T>(deps: Deps, project: ProjectWithNamespace, fn: (gitdir: string) => Promise<T>): Promise<T> {
  const expected = gitdirOf(deps.repos, project);
  return withProjectLock(deps, project.id, async () => {
    const current = await findProjectByIdOrPath(deps.db, String(project.id));
    if (!current) throw new NotFound('Project');
    if (gitdirOf(deps.repos, current) !== expected) throw repositoryMoved();
    return whileRepositoryExists(deps, current, fn);
  });
}

/** The start-up recovery of repositories (repository/recovery.ts), each project under its lock. */
export function recoverAtStart(deps: Deps): Promise<void> {
  return recoverRepositories(deps, (id, fn) => withProjectLock(deps, id, fn));
}
