// File paths given to the write API, checked before they reach a tree. GitLab 10.8 refused
// `..` segments ("Path cannot include directory traversal"); Wharf also refuses what would
// make a tree git itself rejects or that could reach outside the work tree on checkout:
// absolute paths, empty or `.` segments, `.git` components, NUL bytes and names or paths
// longer than the file system holds (NAME_MAX, PATH_MAX). The messages are
// GitLab's (its later Gitaly index errors add `invalid path: '<path>'`).

export class PathError extends Error {}

const EMPTY_PATH = 'You must provide a file path';
/** PATH_MAX and NAME_MAX: a longer path or name could never be checked out. */
export const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;
const TRAVERSAL = 'Path cannot include directory traversal';

/** The path as tree entry names, or a PathError with GitLab's message. */
export function checkFilePath(raw: string | undefined | null): string[] {
  if (raw === undefined || raw === null || raw === '') throw new PathError(EMPTY_PATH);
  if (raw.startsWith('/')) throw new PathError(TRAVERSAL);
  if (Buffer.byteLength(raw) > MAX_PATH_BYTES) throw new PathError(`invalid path: '${raw}'`);
  const segments = raw.split('/');
  if (segments.includes('..')) throw new PathError(TRAVERSAL);
  for (const s of segments) {
    // `.git` in any case: case-insensitive file systems would check it out as the git dir.
    if (s === '' || s === '.' || s.toLowerCase() === '.git' || s.includes('\0') || Buffer.byteLength(s) > MAX_NAME_BYTES) {
      throw new PathError(`invalid path: '${raw}'`);
    }
  }
  return segments;
}
