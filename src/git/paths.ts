// File paths given to the write API, checked before they reach a tree. GitLab 10.8 refused
// `..` segments ("Path cannot include directory traversal"); Wharf also refuses what would
// make a tree git itself rejects or that could reach outside the work tree on checkout:
// absolute paths, empty or `.` segments, `.git` components and NUL bytes. The messages are
// GitLab's (its later Gitaly index errors add `invalid path: '<path>'`).

export class PathError extends Error {}

export const EMPTY_PATH = 'You must provide a file path';
export const TRAVERSAL = 'Path cannot include directory traversal';

/** The path as tree entry names, or a PathError with GitLab's message. */
export function checkFilePath(raw: string | undefined | null): string[] {
  if (raw === undefined || raw === null || raw === '') throw new PathError(EMPTY_PATH);
  if (raw.startsWith('/')) throw new PathError(TRAVERSAL);
  const segments = raw.split('/');
  if (segments.includes('..')) throw new PathError(TRAVERSAL);
  for (const s of segments) {
    // `.git` in any case: case-insensitive file systems would check it out as the git dir.
    if (s === '' || s === '.' || s.toLowerCase() === '.git' || s.includes('\0')) {
      throw new PathError(`invalid path: '${raw}'`);
    }
  }
  return segments;
}
