// The fields of a commit's `author`/`committer` line (`Name <email> 1700000000 +0100`), read
// as isomorphic-git's GitCommit#parse reads them with /^(.*) <(.*)> (.*) (.*)$/, so answers
// do not change with the reader. That regex backtracks polynomially on a crafted line (a
// pushed commit is user input); this finds the same split from the right in linear time.

/** Line terminators, which `.` does not match: a line holding one has no split. */
const TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * [name, email, timestamp, offset] as the regex's greedy groups take them, or null where it
 * does not match. Greedy left groups mean: the offset follows the last space, the email ends
 * at the last "> " before that space, the name ends at the last " <" before that.
 */
export function splitIdentity(line: string): [string, string, string, string] | null {
  if (TERMINATOR.test(line)) return null;
  const space = line.lastIndexOf(' ');
  const close = space >= 2 ? line.lastIndexOf('> ', space - 2) : -1;
  const open = close >= 2 ? line.lastIndexOf(' <', close - 2) : -1;
  if (open < 0) return null;
  return [line.slice(0, open), line.slice(open + 2, close), line.slice(close + 2, space), line.slice(space + 1)];
}
