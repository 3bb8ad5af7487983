// Moving repositories with the rows that name them, as one step a crash cannot split
// (a project rename, a group's new path, a user's new username): with the lock of every
// project involved held, each move is journalled before its folder moves, then the rows are
// written, then the journal entries are settled against the rows, which removes them when
// the rows were written and moves the folders back when they were not (repository_recovery.ts).
// A kill anywhere in between leaves entries that the next lock holder or start settles the
// same way.
import type { Deps } from '../deps.js';
import { validationError } from '../http/errors.js';
import { RepositoryExistsError } from '../git/repos.js';
import { projectLockKey, settleJournal } from './repository_recovery.js';

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
        if (err instanceof RepositoryExistsError) throw validationError({ base: [REPOSITORY_EXISTS] });
        throw err;
      }
    }
    return await writeRows();
  } finally {
    // Written rows keep the folders where they went; rows that were not written bring them back.
    for (const m of moves) await settleJournal(deps, m.projectId);
  }
}
