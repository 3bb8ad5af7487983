// Ruby's Date._parse (ext/date/date_parse.c), which GitLab 10.8 reads every date and time
// parameter with: Rails 4.2 casts a string to a date or datetime column through it, Grape
// coerces `type: Date` / `type: DateTime` parameters with Date.parse / DateTime.parse, which
// call it. It is a heuristic scanner — "2020-01-01T00:00:00Z", "2020/01/01", "Jan 1 2020",
// "1 Jan 2020", "01-Jan-2020", "20200101", "Wed, 01 Jan 2020 10:00 EST" all give 2020-01-01 —
// and no npm date library reads the same set (luxon, date-fns and dayjs are strict formats;
// chrono-node and any-date-parser accept "tomorrow" and read "01/02/2020" the other way), so
// the passes are ported here: the same passes in the same order, each taking the first match
// and blanking it. Every pass walks characters by hand (date_scan.ts): no regular expression
// runs over the input, and the input is bounded (MAX_DATE_LENGTH, as Ruby 3 bounds it).
// Not ported: the Japanese era form and the era "BC" suffix read from words (rare; a "BC"
// inside a form is kept). The passes that read times and compact digits: date_parse_time.ts.
import {
  boundary,
  DAYS,
  digitsEnd,
  firstMatch,
  isAlnum,
  isAsciiAlpha,
  isDigit,
  isWord,
  lower,
  monthAt,
  signedNumberEnd,
  skipSpaces,
  text,
  toInt,
  unsignedNumberEnd,
  wordAt,
  type Chars,
} from './date_scan.js';
import { parseDdd, parseTime, type DateHash } from './date_parse_time.js';
import { zoneToOffset } from './date_zones.js';

export type { DateHash } from './date_parse_time.js';

/** Longer strings are not read at all (Ruby 3's Date._parse limit; 10.8's Ruby had none). */
export const MAX_DATE_LENGTH = 128;

/** `[^-+',./:@[:alnum:]\[\]]+` → one space, as the first step of Date._parse. */
function normalise(input: string): Chars {
  const out: Chars = [];
  let inGap = false;
  for (const ch of input) {
    const kept = "-+',./:@[]".includes(ch) || isAlnum(ch);
    if (kept) out.push(ch);
    else if (!inGap) out.push(' ');
    inGap = !kept;
  }
  return out;
}

const ALPHA = 1;
const DIGIT = 2;
const DASH = 4;
const DOT = 8;
const SLASH = 16;

function has(c: Chars, want: number): boolean {
  let flags = 0;
  for (const ch of c) {
    if (isAsciiAlpha(ch)) flags |= ALPHA;
    else if (isDigit(ch)) flags |= DIGIT;
    else if (ch === '-') flags |= DASH;
    else if (ch === '.') flags |= DOT;
    else if (ch === '/') flags |= SLASH;
  }
  return (flags & want) === want;
}

/** Reads `input` as Ruby's Date._parse(input, comp) does; null when it is too long to read or Ruby raises. */
export function rubyDateParse(input: string, comp: boolean): DateHash | null {
  if (input.length > MAX_DATE_LENGTH) return null;
  try {
    return parseAll(input, comp);
  } catch (err) {
    if (err instanceof RangeError) return null;
    throw err;
  }
}

function parseAll(input: string, comp: boolean): DateHash {
  const c = normalise(input);
  const h: DateHash = { _comp: comp };
  if (has(c, ALPHA)) parseDay(c, h);
  if (has(c, DIGIT)) parseTime(c, h);
  const found =
    (has(c, ALPHA | DIGIT) && (parseEu(c, h) || parseUs(c, h))) ||
    (has(c, DIGIT | DASH) && parseIso(c, h)) ||
    (has(c, ALPHA | DIGIT | DASH) && (parseVms11(c, h) || parseVms12(c, h))) ||
    (has(c, DIGIT | SLASH) && parseSla(c, h)) ||
    (has(c, DIGIT | DOT) && parseDot(c, h)) ||
    (has(c, DIGIT) && parseIso2(c, h)) ||
    (has(c, DIGIT) && parseYear(c, h)) ||
    (has(c, ALPHA) && parseMon(c, h)) ||
    (has(c, DIGIT) && parseMday(c, h)) ||
    (has(c, DIGIT) && parseDdd(c, h));
  void found;
  if (has(c, ALPHA)) parseBc(c, h);
  if (has(c, DIGIT)) parseFrag(c, h);
  return finish(h);
}

function finish(h: DateHash): DateHash {
  const { _bc, _comp, ...out } = h;
  if (_bc) {
    if (out.cwyear !== undefined) out.cwyear = -out.cwyear + 1;
    if (out.year !== undefined) out.year = -out.year + 1;
  }
  if (_comp) {
    const complete = (y: number) => (y >= 0 && y <= 99 ? y + (y >= 69 ? 1900 : 2000) : y);
    if (out.cwyear !== undefined) out.cwyear = complete(out.cwyear);
    if (out.year !== undefined) out.year = complete(out.year);
  }
  if (out.zone !== undefined && out.offset === undefined) out.offset = zoneToOffset(out.zone);
  return out;
}

/**
 * Ruby's s3e: which of three numbers is the year, the month and the day, by their width,
 * an apostrophe ("'20") and what trails them; a year of three or more digits or with a sign
 * is never completed to a century.
 */
function s3e(h: DateHash, y0: string | null, m0: string, d0: string | null, bc: boolean): void {
  let y = y0;
  let m: string | null = m0;
  let d = d0;
  let comp: boolean | null = null;
  if (y !== null && d === null) [y, m, d] = [null, y, m];
  if (y === null) {
    if (d !== null && d.length > 2) [y, d] = [d, null];
    if (d !== null && d.length > 0 && d[0] === "'") [y, d] = [d, null];
  }
  if (y !== null) {
    const span = numberSpan(y, true);
    if (span && span.end < y.length) [y, d] = [d, y.slice(span.start, span.end)];
  }
  if (m !== null && (m[0] === "'" || m.length > 2)) [y, m, d] = [m, d, y];
  if (d !== null && (d[0] === "'" || d.length > 2)) [y, d] = [d, y];
  if (y !== null) {
    const span = numberSpan(y, true);
    if (span) {
      const digits = y.slice(span.start, span.end).replace(/^[-+]/, '');
      if (digits.length !== span.end - span.start || digits.length > 2) comp = false;
      h.year = toInt(y.slice(span.start, span.end));
    }
  }
  if (bc) h._bc = true;
  if (m !== null) {
    const span = numberSpan(m, false);
    if (span) h.mon = toInt(m.slice(span.start, span.end));
  }
  if (d !== null) {
    const span = numberSpan(d, false);
    if (span) h.mday = toInt(d.slice(span.start, span.end));
  }
  if (comp !== null) h._comp = comp;
}

/** The first number in s (from its first digit, or sign when `signed`) and where it ends. */
function numberSpan(s: string, signed: boolean): { start: number; end: number } | null {
  let i = 0;
  while (i < s.length && !isDigit(s[i]) && !(signed && (s[i] === '-' || s[i] === '+'))) i++;
  if (i >= s.length) return null;
  const start = i;
  if (!isDigit(s[i])) i++;
  while (isDigit(s[i])) i++;
  return { start, end: i };
}

// `\b(sun|mon|...)[^-/\d\s]*`
function parseDay(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    if (!boundary(c, i)) return null;
    const day = DAYS.indexOf(lower(c[i]) + lower(c[i + 1]) + lower(c[i + 2]));
    if (day < 0) return null;
    let e = i + 3;
    while (e < c.length && c[e] !== '-' && c[e] !== '/' && c[e] !== ' ' && !isDigit(c[e])) e++;
    return { end: e, apply: () => void (h.wday = day) };
  });
}

const ERAS = ['ce', 'c.e.', 'bce', 'b.c.e.', 'ad', 'a.d.', 'bc', 'b.c.'];

/** `\s*(era)?\s*('?-?\d+)` at i, optionally with an ordinal suffix: [year text, bc, end]. */
function eraYear(c: Chars, i: number, suffix: boolean): { year: string; bc: boolean; end: number } | null {
  const r = skipSpaces(c, i);
  for (const era of [...ERAS.filter((e) => wordAt(c, r, e)), '']) {
    const y = skipSpaces(c, r + era.length);
    let end = signedNumberEnd(c, y);
    if (end < 0) continue;
    if (suffix && ['st', 'nd', 'rd', 'th'].some((s) => wordAt(c, end, s)) && !isWord(c[end + 2])) end += 2;
    return { year: text(c, y, end), bc: era.startsWith('b'), end };
  }
  return null;
}

/** A run of characters that are none of `stop` (and no digit, when `digits` stops it too). */
function runEnd(c: Chars, i: number, stop: string, digits: boolean): number {
  let e = i;
  while (e < c.length && !stop.includes(c[e]) && !(digits && isDigit(c[e]))) e++;
  return e;
}

// `('?\d+)[^-\d\s]*\s*(month)[^-\d\s']*(?:\s*(era)?\s*('?-?\d+(?:st|nd|rd|th)?))?`
function parseEu(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const dEnd = unsignedNumberEnd(c, i);
    if (dEnd < 0) return null;
    const q = runEnd(c, dEnd, '- ', true);
    let at = -1;
    for (let k = q; k >= dEnd && at < 0; k--) {
      const m = k === q ? skipSpaces(c, q) : k;
      if (monthAt(c, m)) at = m;
    }
    if (at < 0) return null;
    const mon = monthAt(c, at);
    const e = runEnd(c, at + 3, "- '", true);
    const y = eraYear(c, e, true);
    return { end: y ? y.end : e, apply: () => s3e(h, y ? y.year : null, String(mon), text(c, i, dEnd), y?.bc ?? false) };
  });
}

// `\b(month)[^-\d\s']*\s*('?\d+)[^-\d\s']*(?:\s*,?\s*(era)?\s*('?-?\d+))?`
function parseUs(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const mon = boundary(c, i) ? monthAt(c, i) : 0;
    if (!mon) return null;
    const r = skipSpaces(c, runEnd(c, i + 3, "- '", true));
    const dEnd = unsignedNumberEnd(c, r);
    if (dEnd < 0) return null;
    const t = runEnd(c, dEnd, "- '", true);
    let g = skipSpaces(c, t);
    if (c[g] === ',') g++;
    const y = eraYear(c, g, false);
    return { end: y ? y.end : t, apply: () => s3e(h, y ? y.year : null, String(mon), text(c, r, dEnd), y?.bc ?? false) };
  });
}

// `('?[-+]?\d+)-(\d+)-('?-?\d+)`
function parseIso(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const yEnd = signedNumberEnd(c, i, '-+');
    if (yEnd < 0 || c[yEnd] !== '-' || !isDigit(c[yEnd + 1])) return null;
    const mEnd = digitsEnd(c, yEnd + 1);
    if (c[mEnd] !== '-') return null;
    const dEnd = signedNumberEnd(c, mEnd + 1);
    if (dEnd < 0) return null;
    return { end: dEnd, apply: () => s3e(h, text(c, i, yEnd), text(c, yEnd + 1, mEnd), text(c, mEnd + 1, dEnd), false) };
  });
}

// `('?-?\d+)-(month)[^-/.]*-('?-?\d+)`
function parseVms11(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const dEnd = signedNumberEnd(c, i);
    if (dEnd < 0 || c[dEnd] !== '-') return null;
    const mon = monthAt(c, dEnd + 1);
    if (!mon) return null;
    const q = runEnd(c, dEnd + 4, '-/.', false);
    if (c[q] !== '-') return null;
    const yEnd = signedNumberEnd(c, q + 1);
    if (yEnd < 0) return null;
    return { end: yEnd, apply: () => s3e(h, text(c, q + 1, yEnd), String(mon), text(c, i, dEnd), false) };
  });
}

// `\b(month)[^-/.]*-('?-?\d+)(?:-('?-?\d+))?`
function parseVms12(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const mon = boundary(c, i) ? monthAt(c, i) : 0;
    if (!mon) return null;
    const q = runEnd(c, i + 3, '-/.', false);
    if (c[q] !== '-') return null;
    const dEnd = signedNumberEnd(c, q + 1);
    if (dEnd < 0) return null;
    const yEnd = c[dEnd] === '-' ? signedNumberEnd(c, dEnd + 1) : -1;
    const y = yEnd < 0 ? null : text(c, dEnd + 1, yEnd);
    return { end: yEnd < 0 ? dEnd : yEnd, apply: () => s3e(h, y, String(mon), text(c, q + 1, dEnd), false) };
  });
}

// `('?-?\d+)/\s*('?\d+)(?:\D\s*('?-?\d+))?`
function parseSla(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const yEnd = signedNumberEnd(c, i);
    if (yEnd < 0 || c[yEnd] !== '/') return null;
    const m = skipSpaces(c, yEnd + 1);
    const mEnd = unsignedNumberEnd(c, m);
    if (mEnd < 0) return null;
    const d = c[mEnd] !== undefined && !isDigit(c[mEnd]) ? skipSpaces(c, mEnd + 1) : -1;
    const dEnd = d < 0 ? -1 : signedNumberEnd(c, d);
    const day = dEnd < 0 ? null : text(c, d, dEnd);
    return { end: dEnd < 0 ? mEnd : dEnd, apply: () => s3e(h, text(c, i, yEnd), text(c, m, mEnd), day, false) };
  });
}

// `('?-?\d+)\.\s*('?\d+)\.\s*('?-?\d+)`
function parseDot(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const yEnd = signedNumberEnd(c, i);
    if (yEnd < 0 || c[yEnd] !== '.') return null;
    const m = skipSpaces(c, yEnd + 1);
    const mEnd = unsignedNumberEnd(c, m);
    if (mEnd < 0 || c[mEnd] !== '.') return null;
    const d = skipSpaces(c, mEnd + 1);
    const dEnd = signedNumberEnd(c, d);
    if (dEnd < 0) return null;
    return { end: dEnd, apply: () => s3e(h, text(c, i, yEnd), text(c, m, mEnd), text(c, d, dEnd), false) };
  });
}

/** Exactly `n` digits at i (not necessarily a whole run). */
function digitsAt(c: Chars, i: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!isDigit(c[i + k])) return false;
  return true;
}

const num = (c: Chars, from: number, to: number) => toInt(text(c, from, to));

// ISO 8601 week dates, month-day and ordinal dates: `\b(\d{2}|\d{4})?-?w(\d{2})(?:-?(\d))?\b`,
// `-w-(\d)\b`, `--(\d{2})?-(\d{2})\b`, `--(\d{2})(\d{2})?\b`, `\b(\d{2}|\d{4})-(\d{3})\b`
// (not after [,.]), `\b-(\d{3})\b` (not after a digit).
function parseIso2(c: Chars, h: DateHash): boolean {
  const week = firstMatch(c, (i) => {
    if (!boundary(c, i)) return null;
    for (const yl of [2, 4, 0]) {
      if (yl && !digitsAt(c, i, yl)) continue;
      for (const dash of c[i + yl] === '-' ? [1, 0] : [0]) {
        const w = i + yl + dash;
        if (lower(c[w]) !== 'w' || !digitsAt(c, w + 1, 2)) continue;
        const days = [c[w + 3] === '-' && isDigit(c[w + 4]) ? 2 : -1, isDigit(c[w + 3]) ? 1 : -1, 0].filter((n) => n >= 0);
        for (const dl of days) {
          const end = w + 3 + dl;
          if (!boundary(c, end)) continue;
          return {
            end,
            apply: () => {
              if (yl) h.cwyear = num(c, i, i + yl);
              h.cweek = num(c, w + 1, w + 3);
              if (dl) h.cwday = num(c, end - 1, end);
            },
          };
        }
      }
    }
    return null;
  });
  if (week) return true;
  if (
    firstMatch(c, (i) =>
      c[i] === '-' && lower(c[i + 1]) === 'w' && c[i + 2] === '-' && isDigit(c[i + 3]) && boundary(c, i + 4)
        ? { end: i + 4, apply: () => void (h.cwday = num(c, i + 3, i + 4)) }
        : null,
    )
  )
    return true;
  const monthDay = firstMatch(c, (i) => {
    if (c[i] !== '-' || c[i + 1] !== '-') return null;
    for (const ml of [2, 0]) {
      const d = i + 2 + ml;
      if ((ml && !digitsAt(c, i + 2, 2)) || c[d] !== '-' || !digitsAt(c, d + 1, 2) || !boundary(c, d + 3)) continue;
      return { end: d + 3, apply: () => (ml ? (h.mon = num(c, i + 2, i + 4)) : 0, (h.mday = num(c, d + 1, d + 3))) };
    }
    return null;
  });
  if (monthDay) return true;
  const monthOnly = firstMatch(c, (i) => {
    if (c[i] !== '-' || c[i + 1] !== '-' || !digitsAt(c, i + 2, 2)) return null;
    for (const dl of [2, 0]) {
      if ((dl && !digitsAt(c, i + 4, 2)) || !boundary(c, i + 4 + dl)) continue;
      return { end: i + 4 + dl, apply: () => ((h.mon = num(c, i + 2, i + 4)), dl ? (h.mday = num(c, i + 4, i + 6)) : 0) };
    }
    return null;
  });
  if (monthOnly) return true;
  return parseOrdinal(c, h);
}

function parseOrdinal(c: Chars, h: DateHash): boolean {
  const ordinalAt = (i: number, needBoundary: boolean) => {
    if (needBoundary && !boundary(c, i)) return -1;
    for (const yl of [2, 4]) {
      if (digitsAt(c, i, yl) && c[i + yl] === '-' && digitsAt(c, i + yl + 1, 3) && boundary(c, i + yl + 4)) return yl;
    }
    return -1;
  };
  let guarded = false;
  for (let i = 0; i < c.length && !guarded; i++) if ((c[i] === ',' || c[i] === '.') && ordinalAt(i + 1, false) > 0) guarded = true;
  if (!guarded) {
    const found = firstMatch(c, (i) => {
      const yl = ordinalAt(i, true);
      return yl < 0 ? null : { end: i + yl + 4, apply: () => ((h.year = num(c, i, i + yl)), (h.yday = num(c, i + yl + 1, i + yl + 4))) };
    });
    if (found) return true;
  }
  for (let i = 0; i + 4 < c.length; i++) if (isDigit(c[i]) && c[i + 1] === '-' && digitsAt(c, i + 2, 3) && boundary(c, i + 5)) return false;
  return firstMatch(c, (i) =>
    boundary(c, i) && c[i] === '-' && digitsAt(c, i + 1, 3) && boundary(c, i + 4) ? { end: i + 4, apply: () => void (h.yday = num(c, i + 1, i + 4)) } : null,
  );
}

// `'(\d+)\b`
function parseYear(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    if (c[i] !== "'" || !isDigit(c[i + 1])) return null;
    const e = digitsEnd(c, i + 1);
    return isWord(c[e]) ? null : { end: e, apply: () => void (h.year = num(c, i + 1, e)) };
  });
}

// `\b(month)\S*`
function parseMon(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const mon = boundary(c, i) ? monthAt(c, i) : 0;
    if (!mon) return null;
    let e = i + 3;
    while (e < c.length && c[e] !== ' ') e++;
    return { end: e, apply: () => void (h.mon = mon) };
  });
}

// `(\d+)(st|nd|rd|th)\b`
function parseMday(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    if (!isDigit(c[i])) return null;
    const e = digitsEnd(c, i);
    if (!['st', 'nd', 'rd', 'th'].some((s) => wordAt(c, e, s)) || isWord(c[e + 2])) return null;
    return { end: e + 2, apply: () => void (h.mday = num(c, i, e)) };
  });
}

// `\b(bc\b|bce\b|b\.c\.|b\.c\.e\.)`
function parseBc(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    if (!boundary(c, i) || lower(c[i]) !== 'b') return null;
    if (wordAt(c, i, 'bc') && !isWord(c[i + 2])) return { end: i + 2, apply: () => void (h._bc = true) };
    if (wordAt(c, i, 'bce') && !isWord(c[i + 3])) return { end: i + 3, apply: () => void (h._bc = true) };
    if (wordAt(c, i, 'b.c.')) return { end: i + 4, apply: () => void (h._bc = true) };
    return null;
  });
}

// `\A\s*(\d{1,2})\s*\z`: a lone number is the day when a time was read, the hour when a day was.
function parseFrag(c: Chars, h: DateHash): void {
  const s = c.join('').trim();
  if (!/^\d{1,2}$/.test(s)) return;
  const n = Number(s);
  if (h.hour !== undefined && h.mday === undefined && n >= 1 && n <= 31) h.mday = n;
  if (h.mday !== undefined && h.hour === undefined && n >= 0 && n <= 24) h.hour = n;
}
