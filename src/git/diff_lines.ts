// Line diffs printed the way git prints them: Myers (the `diff` package) for the edit script,
// then git's xdiff post-processing (slide each change group down, or align it with a change
// in the other file) so hunks land where `git diff` puts them, then xdiff's hunk grouping,
// headers (with the default funcname context) and "\ No newline at end of file" markers.
// GitLab 10.8 diffed through libgit2, which has this xdiff code but no indent heuristic, so
// the reference is `git diff --no-indent-heuristic` (identical to `git diff` for most edits).
import { createRequire } from 'node:module';
import type * as Diff from 'diff';

/** The diff package, loaded with the first changed-lines comparison (an idle process does without it). */
let diffLoaded: typeof Diff | undefined;
function diffArrays<T>(a: T[], b: T[], options: { maxEditLength: number }): ReturnType<typeof Diff.diffArrays<T>> | undefined {
  diffLoaded ??= createRequire(import.meta.url)('diff') as typeof Diff;
  return diffLoaded.diffArrays(a, b, options);
}

/** Lines kept as latin1 strings so every byte survives; each keeps its "\n" (the last may not). */
function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** git's binary test: a NUL byte in the first 8000 bytes. */
export function isBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8000);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

/** One change: `n1` lines of the old file from `i1` replaced by `n2` lines of the new one from `i2`. */
interface Change {
  i1: number;
  n1: number;
  i2: number;
  n2: number;
}

// Past this many edits Myers is given up and the region is a plain replace (pathological
// rewrites only; GitLab collapses patches that big anyway).
const MAX_EDIT_LENGTH = 20000;

/** Marks the changed lines of each side (xdiff's `rchg`), with one spare zero slot at the end. */
function mark(a: number[], b: number[]): [Uint8Array, Uint8Array] {
  const r1 = new Uint8Array(a.length + 1);
  const r2 = new Uint8Array(b.length + 1);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ma = a.slice(head, a.length - tail);
  const mb = b.slice(head, b.length - tail);
  if (ma.length === 0 || mb.length === 0) {
    r1.fill(1, head, head + ma.length);
    r2.fill(1, head, head + mb.length);
    return [r1, r2];
  }
  const parts = diffArrays(ma, mb, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) {
    r1.fill(1, head, head + ma.length);
    r2.fill(1, head, head + mb.length);
    return [r1, r2];
  }
  let i = head;
  let j = head;
  for (const part of parts) {
    const n = part.count ?? part.value.length;
    if (part.removed) {
      r1.fill(1, i, i + n);
      i += n;
    } else if (part.added) {
      r2.fill(1, j, j + n);
      j += n;
    } else {
      i += n;
      j += n;
    }
  }
  return [r1, r2];
}

interface Side {
  recs: number[];
  rchg: Uint8Array;
}

interface Group {
  start: number;
  end: number;
}

const at = (s: Side, i: number) => (i < 0 ? 0 : s.rchg[i]);

function groupInit(s: Side): Group {
  const g = { start: 0, end: 0 };
  while (at(s, g.end)) g.end++;
  return g;
}

function groupNext(s: Side, g: Group): boolean {
  if (g.end === s.recs.length) return false;
  g.start = g.end + 1;
  for (g.end = g.start; at(s, g.end); g.end++);
  return true;
}

function groupPrevious(s: Side, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; at(s, g.start - 1); g.start--);
  return true;
}

function slideDown(s: Side, g: Group): boolean {
  if (g.end < s.recs.length && s.recs[g.start] === s.recs[g.end]) {
    s.rchg[g.start++] = 0;
    s.rchg[g.end++] = 1;
    while (at(s, g.end)) g.end++;
    return true;
  }
  return false;
}

function slideUp(s: Side, g: Group): boolean {
  if (g.start > 0 && s.recs[g.start - 1] === s.recs[g.end - 1]) {
    s.rchg[--g.start] = 1;
    s.rchg[--g.end] = 0;
    while (at(s, g.start - 1)) g.start--;
    return true;
  }
  return false;
}

/** xdiff's xdl_change_compact without the indent heuristic. */
function compact(s: Side, o: Side): void {
  const g = groupInit(s);
  const go = groupInit(o);
  for (;;) {
    if (g.end !== g.start) {
      let groupsize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupsize = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(s, g)) groupPrevious(o, go);
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        while (slideDown(s, g)) {
          groupNext(o, go);
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupsize !== g.end - g.start);
      if (g.end !== earliestEnd && endMatchingOther !== -1) {
        while (go.end === go.start) {
          slideUp(s, g);
          groupPrevious(o, go);
        }
      }
    }
    if (!groupNext(s, g)) break;
    groupNext(o, go);
  }
}

export interface LineDiff {
  a: string[];
  b: string[];
  changes: Change[];
  additions: number;
  deletions: number;
}

/**
 * The length of the shortest edit script between two id sequences (Myers' greedy forward
 * algorithm on typed arrays, with the same edge pruning as the `diff` package), or -1 when it
 * is longer than `maxD`. Any shortest script deletes (D + n - m) / 2 and adds (D - n + m) / 2
 * lines, so counts need no script at all.
 */
export function editDistance(a: ArrayLike<number>, b: ArrayLike<number>, maxD: number): number {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(maxD, n + m);
  const off = limit + 1;
  const v = new Int32Array(2 * limit + 3); // furthest x (lines of `a` consumed) per diagonal k = x - y
  const round = new Int32Array(2 * limit + 3).fill(-1); // the d that wrote v[k]
  let x = 0;
  while (x < n && x < m && a[x] === b[x]) x++;
  if (x >= n && x >= m) return 0;
  v[off] = x;
  round[off] = 0;
  let minK = x >= m ? 1 : -Infinity;
  let maxK = x >= n ? -1 : Infinity;
  for (let d = 1; d <= limit; d++) {
    let lo = Math.max(minK, -d);
    if ((lo + d) & 1) lo++;
    const hi = Math.min(maxK, d);
    for (let k = lo; k <= hi; k += 2) {
      const del = round[off + k - 1] === d - 1 && v[off + k - 1] < n;
      const ins = round[off + k + 1] === d - 1 && v[off + k + 1] - k <= m;
      if (!del && !ins) continue;
      let xs = ins && (!del || v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let ys = xs - k;
      while (xs < n && ys < m && a[xs] === b[ys]) {
        xs++;
        ys++;
      }
      if (xs >= n && ys >= m) return d;
      v[off + k] = xs;
      round[off + k] = d;
      if (xs >= n) maxK = Math.min(maxK, k - 1);
      if (ys >= m) minK = Math.max(minK, k + 1);
    }
  }
  return -1;
}

/** Added and deleted line counts between two texts (latin1 strings), as `diffLines` counts them. */
export function countChanges(oldText: string, newText: string): { additions: number; deletions: number } {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n === 0 || m === 0) return { additions: m, deletions: n };
  const ids = new Map<string, number>();
  const intern = (l: string) => {
    let id = ids.get(l);
    if (id === undefined) ids.set(l, (id = ids.size));
    return id;
  };
  const ra = new Int32Array(n);
  const rb = new Int32Array(m);
  for (let i = 0; i < n; i++) ra[i] = intern(a[head + i]);
  for (let i = 0; i < m; i++) rb[i] = intern(b[head + i]);
  const d = editDistance(ra, rb, MAX_EDIT_LENGTH);
  if (d < 0) return { additions: m, deletions: n };
  return { additions: (d - n + m) / 2, deletions: (d + n - m) / 2 };
}

/** The edit script between two texts (latin1 strings), compacted as git does. */
export function diffLines(oldText: string, newText: string): LineDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ids = new Map<string, number>();
  const intern = (l: string) => {
    let id = ids.get(l);
    if (id === undefined) ids.set(l, (id = ids.size));
    return id;
  };
  const ra = a.map(intern);
  const rb = b.map(intern);
  const [r1, r2] = mark(ra, rb);
  const s1 = { recs: ra, rchg: r1 };
  const s2 = { recs: rb, rchg: r2 };
  compact(s1, s2);
  compact(s2, s1);
  const changes: Change[] = [];
  let additions = 0;
  let deletions = 0;
  let i1 = 0;
  let i2 = 0;
  while (i1 < a.length || i2 < b.length) {
    if (r1[i1] || r2[i2]) {
      const c = { i1, n1: 0, i2, n2: 0 };
      while (r1[i1]) i1++;
      while (r2[i2]) i2++;
      c.n1 = i1 - c.i1;
      c.n2 = i2 - c.i2;
      deletions += c.n1;
      additions += c.n2;
      changes.push(c);
    } else {
      i1++;
      i2++;
    }
  }
  return { a, b, changes, additions, deletions };
}

const CONTEXT = 3;

/** git's default funcname rule: a line starting with a letter, "_" or "$", cut to 80 bytes. */
function funcLine(line: string): string | null {
  const c = line.charCodeAt(0);
  const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
  if (!ok) return null;
  return line.slice(0, 80).replace(/(?<!\s)\s+$/, '');
}

function range(start: number, count: number): string {
  const first = count ? start + 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

export interface Hunks {
  /** The hunks as git prints them (latin1), from the first "@@" line. */
  text: string;
  /** Sum of the bytes of every hunk line without its +/-/space marker (libgit2's patch size). */
  contentBytes: number;
}

/** The unified hunks (3 lines of context) of a computed line diff. */
export function formatHunks(d: LineDiff): Hunks {
  const { a, b, changes } = d;
  let text = '';
  let contentBytes = 0;
  let func = '';
  let funcSearchedTo = -1;
  const emit = (mark: string, line: string) => {
    contentBytes += line.length;
    text += mark + line;
    if (!line.endsWith('\n')) text += '\n\\ No newline at end of file\n';
  };
  let k = 0;
  while (k < changes.length) {
    let last = k;
    while (last + 1 < changes.length && changes[last + 1].i1 - (changes[last].i1 + changes[last].n1) <= 2 * CONTEXT) last++;
    const first = changes[k];
    const end = changes[last];
    const s1 = Math.max(first.i1 - CONTEXT, 0);
    const s2 = Math.max(first.i2 - CONTEXT, 0);
    const e1 = Math.min(end.i1 + end.n1 + CONTEXT, a.length);
    const e2 = Math.min(end.i2 + end.n2 + CONTEXT, b.length);
    // The nearest funcname line above the hunk; earlier hunks' findings carry over.
    for (let l = s1 - 1; l > funcSearchedTo && l >= 0; l--) {
      const f = funcLine(a[l]);
      if (f !== null) {
        func = f;
        break;
      }
    }
    funcSearchedTo = s1 - 1;
    text += `@@ -${range(s1, e1 - s1)} +${range(s2, e2 - s2)} @@${func ? ' ' + func : ''}\n`;
    let pos = s1;
    for (let c = k; c <= last; c++) {
      const ch = changes[c];
      for (; pos < ch.i1; pos++) emit(' ', a[pos]);
      for (let i = 0; i < ch.n1; i++) emit('-', a[ch.i1 + i]);
      for (let i = 0; i < ch.n2; i++) emit('+', b[ch.i2 + i]);
      pos = ch.i1 + ch.n1;
    }
    for (; pos < e1; pos++) emit(' ', a[pos]);
    k = last + 1;
  }
  return { text, contentBytes };
}
