// The parts of a Markdown line where GitLab's reference filters never look for `@name`:
// code spans, HTML comments, <a>/<code>/<pre> elements, links and images, autolinks and bare
// URLs (Banzai skips `code`, `pre` and `a` nodes and comments). Each is blanked out with
// spaces so positions keep their meaning. Every scan is linear in the line: a note is user
// input, and the lazy or back-referencing regexes this replaces backtracked quadratically
// on a line of unclosed openers (`<!--<!--…`, `<a <a …`, runs of backticks).

const blank = (m: string) => ' '.repeat(m.length);

/**
 * Code spans: a run of backticks up to the next run of exactly as many (CommonMark); a run
 * without its match stays text. Each run's next run of the same length is found in one
 * pass from the right.
 */
function maskCodeSpans(line: string): string {
  const runs: { start: number; end: number }[] = [];
  for (let i = line.indexOf('`'); i >= 0; i = line.indexOf('`', i)) {
    let end = i;
    while (line[end] === '`') end++;
    runs.push({ start: i, end });
    i = end;
  }
  const next: number[] = new Array(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    const length = runs[r].end - runs[r].start;
    next[r] = lastOfLength.get(length) ?? -1;
    lastOfLength.set(length, r);
  }
  let out = '';
  let copied = 0;
  for (let r = 0; r < runs.length; r++) {
    if (next[r] < 0) continue;
    const closer = runs[next[r]];
    out += line.slice(copied, runs[r].start) + ' '.repeat(closer.end - runs[r].start);
    copied = closer.end;
    r = next[r];
  }
  return out + line.slice(copied);
}

/**
 * `<!-- … -->` comments: each opener to the first `-->` after it. Once no `-->` follows, no
 * later opener can close either, so the scan stops.
 */
function maskComments(line: string): string {
  let out = '';
  let copied = 0;
  for (let open = line.indexOf('<!--'); open >= 0; open = line.indexOf('<!--', copied)) {
    const close = line.indexOf('-->', open + 4);
    if (close < 0) break;
    out += line.slice(copied, open) + ' '.repeat(close + 3 - open);
    copied = close + 3;
  }
  return out + line.slice(copied);
}

// An opening tag's attributes stop at `<` as well as `>`, so each `<` starts one short scan.
const OPEN_TAG = /<(a|code|pre)\b[^<>]*>/gi;
const CLOSE_TAG: Record<string, RegExp> = { a: /<\/a>/gi, code: /<\/code>/gi, pre: /<\/pre>/gi };

/** `<a …>…</a>`, `<code>…</code>`, `<pre>…</pre>`: each opening tag to its first closing tag. */
function maskElements(line: string): string {
  const unclosed = new Set<string>(); // no closing tag of that name is left
  let out = '';
  let copied = 0;
  OPEN_TAG.lastIndex = 0;
  for (let m = OPEN_TAG.exec(line); m; m = OPEN_TAG.exec(line)) {
    const name = m[1].toLowerCase();
    if (unclosed.has(name)) continue;
    const closer = CLOSE_TAG[name];
    closer.lastIndex = m.index + m[0].length;
    const close = closer.exec(line);
    if (!close) {
      unclosed.add(name);
      continue;
    }
    out += line.slice(copied, m.index) + ' '.repeat(closer.lastIndex - m.index);
    copied = closer.lastIndex;
    OPEN_TAG.lastIndex = copied;
  }
  return out + line.slice(copied);
}

/** Blanks out code, comments, links and URLs of one line. */
export function maskInline(line: string): string {
  let out = maskCodeSpans(line);
  out = maskComments(out);
  out = maskElements(out);
  // Links and images, [text](url): text and URL stop at a `[`, so each `[` starts one short
  // scan (and, as in CommonMark, the link of `[a [b](c)` is `[b](c)`).
  out = out.replace(/!?\[[^[\]]*\]\([^)[]*\)/g, blank);
  // Autolinks <scheme:…> (no `<` inside, as CommonMark) and bare URLs: an '@' in a URL is
  // never a mention.
  out = out.replace(/<[a-z][a-z0-9+.-]*:[^<>\s]*>/gi, blank);
  out = out.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, blank);
  return out;
}
