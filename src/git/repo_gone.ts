// The repository folder a write was aimed at is not there any more: the project was renamed,
// transferred or deleted while the write ran. Writers never create a repository's folder (or
// its `objects/`, `refs/`) to carry on: that re-created an orphan `<old>.git` that no project
// owns and swallowed acknowledged commits. They stop with this error instead, and the
// service that started the write answers 404 or 409 (services/repository/guard.ts).
export class RepositoryGoneError extends Error {
  constructor(readonly gitdir: string) {
    super('the repository folder is gone');
  }
}

/** True for the errors a file operation gives when a folder on its path no longer exists. */
export function isMissingPath(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
