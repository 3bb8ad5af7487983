// Moving repositories with the rows that name them, as one step a crash cannot split
// (a project rename, a group's new path, a user's new username): with the lock of every
// project involved held, each move is journalled before its folder moves, then the rows are
// written, then the journal entries are settled against the rows, which removes them when
// the rows were written and moves the folders back when they were not (repository/recovery.ts).
// A kill anywhere in between leaves entries that the next lock holder or start settles the
// same way.
import crypto from 'node:crypto';
import type { Deps } from '../../deps.js';
import { Conflict, Invalid } from '../../store/domain_errors.js';
import { RepositoryExistsError } from '../../git/repos.js';
import { projectLockKey, settleJournal } from './recovery.js';
import { withProjectLocks } from './guard.js';

export interface RepositoryMove {
  projectId: number;
  /** `<namespace full path>/<project path>` before and after. */
  from: string;
  to: string;
}

export const REPOSITORY_EXISTS = 'There is already a repository with that name on disk';

/** Call with the repository lock of every project in `moves` held (withProjectLocks). */
export async function moveRepositories<T>(deps: Deps, moves: RepositoryMove[], writeRows: () => Promise<T>): Promise<T> {
  try {
    for (const m of moves) {
      if (m.from === m.to) continue;
      await deps.repos.journal.write(projectLockKey(m.projectId), { op: 'move', from: m.from, to: m.to });
      if (!deps.repos.occupied(m.from)) continue; // no repository to carry (the rows still move)
      try {
        await deps.repos.move(m.from, m.to);
      } catch (err) {
        if (err instanceof RepositoryExistsError) throw new Invalid({ base: [REPOSITORY_EXISTS] });
        throw err;
      }
    }
    return await writeRows();
  } finally {
    // Written rows keep the folders where they went; rows that were not written bring them back.
    for (const m of moves) await settleJournal(deps, m.projectId);
  }
}

/** Rounds of "lock the projects, find one was added meanwhile" before giving up. */
const LOCK_ATTEMPTS = 3;

/** Runs `body` holding the locks of the projects `plan` lists, as it lists them once locked. */
async function underLocksOf<M extends { projectId: number }, T>(deps: Deps, plan: () => Promise<M[]>, body: (list: M[]) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
    const ids = (await plan()).map((m) => m.projectId);
    const done = await withProjectLocks(deps, ids, async () => {
      const list = await plan();
      if (list.some((m) => !ids.includes(m.projectId))) return null; // created meanwhile
      return { result: await body(list) };
    });
    if (done) return done.result;
  }
  throw new Conflict('The namespace was changed by another request; please try again');
}

/**
 * Deletes the repositories of the projects `plan` lists (a deleted user's or group's) around
 * `writeRows`, which deletes their rows: each is journalled and moved into the trash first,
 * then removed once the rows are gone, or put back if they are not.
 */
export async function deleteRepositoriesOf<T>(deps: Deps, plan: () => Promise<{ projectId: number; fullPath: string }[]>, writeRows: () => Promise<T>): Promise<T> {
  return underLocksOf(deps, plan, async (list) => {
    try {
      for (const p of list) {
        const key = projectLockKey(p.projectId);
        const trash = `${key}-${crypto.randomBytes(8).toString('hex')}`;
        await deps.repos.journal.write(key, { op: 'delete', from: p.fullPath, trash });
        await deps.repos.trash(p.fullPath, trash);
      }
      return await writeRows();
    } finally {
      for (const p of list) await settleJournal(deps, p.projectId);
    }
  });
}

/**
 * Moves the repositories that `plan` lists (every project of a namespace whose path changes)
 * around `writeRows`: `plan` runs once to learn which projects to lock, then again under
 * their locks; a project that appeared in between starts the round again.
 */
export async function moveRepositoriesOf<T>(deps: Deps, plan: () => Promise<RepositoryMove[]>, writeRows: () => Promise<T>): Promise<T> {
  return underLocksOf(deps, plan, (moves) => moveRepositories(deps, moves, writeRows));
}
