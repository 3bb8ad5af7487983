// The ancestry suffixes of a revision as `git rev-parse` reads them (GitLab 10.8 resolved
// refs with Rugged's rev_parse): `master~2`, `v1.0^`, `HEAD^2`, `tag^{}`, chained as in
// `master^{}~3^2`. Parsed from the end in one pass: a regex with a lazy base and a repeated
// suffix group backtracked quadratically, and a 100 KB `a~~~…~X` held the event loop for
// half a minute.

/** PATH_MAX: no ref git can store, nor any suffix worth following, is longer. */
export const MAX_REVISION_BYTES = 4096;

export type RevisionStep = { op: '~' | '^'; count: number } | { op: 'peel' };

export interface Revision {
  /** What the suffixes apply to: a ref name or an object id. */
  base: string;
  /** The suffixes, left to right. */
  steps: RevisionStep[];
}

const isDigit = (c: string) => c >= '0' && c <= '9';

/**
 * Splits the longest run of suffixes off the end of `rev`; the base keeps at least one
 * character. `a~2^` → base `a`, steps ~2 then ^1. A count too large to be exact is kept as
 * Infinity (it walks past any root).
 */
export function parseRevision(rev: string): Revision {
  const steps: RevisionStep[] = [];
  let end = rev.length;
  while (end > 1) {
    if (end >= 4 && rev.endsWith('^{}', end)) {
      steps.push({ op: 'peel' });
      end -= 3;
      continue;
    }
    let digits = end;
    while (digits > 0 && isDigit(rev[digits - 1])) digits--;
    const op = rev[digits - 1];
    if (digits < 2 || (op !== '~' && op !== '^')) break;
    const count = digits === end ? 1 : Number(rev.slice(digits, end));
    steps.push({ op, count: Number.isSafeInteger(count) ? count : Infinity });
    end = digits - 1;
  }
  return { base: rev.slice(0, end), steps: steps.reverse() };
}
