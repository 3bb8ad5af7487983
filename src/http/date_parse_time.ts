// The two passes of Ruby's Date._parse that read times (see date_parse.ts): `parse_time`
// ("10:30", "10:30:15.5 pm", "10h30m", "7am", each with an optional zone: "Z", "+05:30",
// "GMT+2", "EST", "Pacific Standard Time") and `parse_ddd`, the run of digits read by its
// length ("20200101", "20200101T101010Z", "200101", "[+9]" zones). Hand-walked, like the rest.
import { boundary, digitsEnd, firstMatch, isAlpha, isDigit, isWord, lower, skipSpaces, text, toInt, wordAt, type Chars } from './date_scan.js';
import { zoneToOffset } from './date_zones.js';

/** What Date._parse found; `offset` in seconds, null for a zone it does not know. */
export interface DateHash {
  year?: number;
  mon?: number;
  mday?: number;
  wday?: number;
  yday?: number;
  cwyear?: number;
  cweek?: number;
  cwday?: number;
  hour?: number;
  min?: number;
  sec?: number;
  /** Fraction of a second, 0 ≤ f < 1. */
  sec_fraction?: number;
  zone?: string;
  offset?: number | null;
  _comp?: boolean;
  _bc?: boolean;
}

/** `\s*[ap](?:m\b|\.m\.)` at i: [end, letter], or null. */
function meridianAt(c: Chars, i: number): { end: number; pm: boolean } | null {
  const r = skipSpaces(c, i);
  const ch = lower(c[r]);
  if (ch !== 'a' && ch !== 'p') return null;
  if (lower(c[r + 1]) === 'm' && !isWord(c[r + 2])) return { end: r + 2, pm: ch === 'p' };
  if (c[r + 1] === '.' && lower(c[r + 2]) === 'm' && c[r + 3] === '.') return { end: r + 4, pm: ch === 'p' };
  return null;
}

/** The zone after a time: `(?:gmt|utc?)?[-+]\d+(?:[,.:]\d+(?::\d+)?)?`, a "... standard|daylight time" name, or a word with an optional " dst". */
function zoneAt(c: Chars, r: number): number {
  for (const prefix of ['gmt', 'utc', 'ut', '']) {
    if (!wordAt(c, r, prefix)) continue;
    const s = r + prefix.length;
    if ((c[s] !== '+' && c[s] !== '-') || !isDigit(c[s + 1])) continue;
    let e = digitsEnd(c, s + 1);
    if (',.:'.includes(c[e] ?? 'x') && isDigit(c[e + 1])) {
      e = digitsEnd(c, e + 1);
      if (c[e] === ':' && isDigit(c[e + 1])) e = digitsEnd(c, e + 1);
    }
    return e;
  }
  let q = r;
  while (q < c.length && (isAlpha(c[q]) || c[q] === '.' || c[q] === ' ')) q++;
  for (let k = q; k > r; k--) {
    if ((wordAt(c, k, 'standard') || wordAt(c, k, 'daylight')) && c[k + 8] === ' ' && wordAt(c, k + 9, 'time') && !isWord(c[k + 13])) return k + 13;
  }
  q = r;
  while (q < c.length && isAlpha(c[q])) q++;
  for (let k = q; k > r; k--) {
    if (c[k] === ' ' && wordAt(c, k + 1, 'dst') && !isWord(c[k + 4])) return k + 4;
    if (boundary(c, k)) return k;
  }
  return -1;
}

interface Clock {
  end: number;
  hour: [number, number];
  min?: [number, number];
  sec?: [number, number];
  frac?: [number, number];
  /** A `[,.]` after the seconds with no digit: Ruby's second reading then never reaches the meridian. */
  danglingSeparator: boolean;
  /** "12 h30": Ruby's second reading stops at the space before the `h` and keeps the hour alone. */
  hourOnly?: boolean;
}

/** `\d+\s*:\s*\d+(?:\s*:\s*\d+(?:[,.]\d*)?)?` or `\d+\s*h(?:\s*\d+m?(?:\s*\d+s?)?)?` at i. */
function clockAt(c: Chars, i: number): Clock | null {
  const hEnd = digitsEnd(c, i);
  const colon = skipSpaces(c, hEnd);
  if (c[colon] === ':' && isDigit(c[skipSpaces(c, colon + 1)])) {
    const m = skipSpaces(c, colon + 1);
    const clock: Clock = { end: digitsEnd(c, m), hour: [i, hEnd], min: [m, digitsEnd(c, m)], danglingSeparator: false };
    const colon2 = skipSpaces(c, clock.end);
    const s = skipSpaces(c, colon2 + 1);
    if (c[colon2] === ':' && isDigit(c[s])) {
      clock.sec = [s, digitsEnd(c, s)];
      clock.end = clock.sec[1];
      if (c[clock.end] === ',' || c[clock.end] === '.') {
        const f = digitsEnd(c, clock.end + 1);
        if (f > clock.end + 1) clock.frac = [clock.end + 1, f];
        else clock.danglingSeparator = true;
        clock.end = f;
      }
    }
    return clock;
  }
  if (lower(c[colon]) !== 'h') return null;
  const clock: Clock = { end: colon + 1, hour: [i, hEnd], danglingSeparator: false, hourOnly: colon > hEnd };
  const m = skipSpaces(c, clock.end);
  if (isDigit(c[m])) {
    clock.min = [m, digitsEnd(c, m)];
    clock.end = clock.min[1] + (lower(c[clock.min[1]]) === 'm' ? 1 : 0);
    const s = skipSpaces(c, clock.end);
    if (isDigit(c[s])) {
      clock.sec = [s, digitsEnd(c, s)];
      clock.end = clock.sec[1] + (lower(c[clock.sec[1]]) === 's' ? 1 : 0);
    }
  }
  return clock;
}

export function parseTime(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    if (!isDigit(c[i])) return null;
    let clock = clockAt(c, i);
    let meridian = clock ? meridianAt(c, clock.end) : null;
    if (!clock) {
      meridian = meridianAt(c, digitsEnd(c, i));
      if (!meridian) return null;
      clock = { end: digitsEnd(c, i), hour: [i, digitsEnd(c, i)], danglingSeparator: false };
    }
    let end = meridian ? meridian.end : clock.end;
    const z = skipSpaces(c, end);
    const zEnd = zoneAt(c, z);
    const zone = zEnd > z ? text(c, z, zEnd) : undefined;
    if (zone !== undefined) end = zEnd;
    const found = clock;
    return {
      end,
      apply: () => {
        if (zone !== undefined) h.zone = zone;
        let hour = toInt(text(c, ...found.hour));
        if (meridian && !found.danglingSeparator && !found.hourOnly) {
          // Ruby converts the hour to a C int here and raises past its range.
          if (hour > 2 ** 31 - 1) throw new RangeError('integer too big to convert to int');
          hour = (hour % 12) + (meridian.pm ? 12 : 0);
        }
        h.hour = hour;
        if (found.hourOnly) return;
        if (found.min) h.min = toInt(text(c, ...found.min));
        if (found.sec) h.sec = toInt(text(c, ...found.sec));
        if (found.frac) h.sec_fraction = toInt(text(c, ...found.frac)) / 10 ** (found.frac[1] - found.frac[0]);
      },
    };
  });
}

/** The zone after compact digits: `z\b`, `[-+]\d{1,4}\b` or `\[[-+]?\d[^\]]*\]`; its end or -1. */
function compactZoneAt(c: Chars, z: number): number {
  if (lower(c[z]) === 'z' && !isWord(c[z + 1])) return z + 1;
  if (c[z] === '+' || c[z] === '-') {
    const e = digitsEnd(c, z + 1);
    return e - z - 1 >= 1 && e - z - 1 <= 4 && !isWord(c[e]) ? e : -1;
  }
  if (c[z] !== '[') return -1;
  const d = c[z + 1] === '+' || c[z + 1] === '-' ? z + 2 : z + 1;
  if (!isDigit(c[d])) return -1;
  const close = c.indexOf(']', d + 1);
  return close < 0 ? -1 : close + 1;
}

// `([-+]?)(\d{2,14})(?:\s*t?\s*(\d{2,6})?(?:[,.](\d*))?)?(?:\s*(zone))?`
export function parseDdd(c: Chars, h: DateHash): boolean {
  return firstMatch(c, (i) => {
    const sign = c[i] === '-' || c[i] === '+' ? c[i] : '';
    const p = i + sign.length;
    if (!isDigit(c[p]) || !isDigit(c[p + 1])) return null;
    const s2 = text(c, p, Math.min(digitsEnd(c, p), p + 14));
    let a = skipSpaces(c, p + s2.length);
    if (lower(c[a]) === 't') a++;
    a = skipSpaces(c, a);
    let s3: string | undefined;
    let s4: string | undefined;
    if (isDigit(c[a]) && isDigit(c[a + 1])) {
      s3 = text(c, a, Math.min(digitsEnd(c, a), a + 6));
      a += s3.length;
    }
    if (c[a] === ',' || c[a] === '.') {
      s4 = text(c, a + 1, digitsEnd(c, a + 1));
      a += 1 + s4.length;
    }
    const z = skipSpaces(c, a);
    const zEnd = compactZoneAt(c, z);
    const s5 = zEnd < 0 ? undefined : text(c, z, zEnd);
    return { end: zEnd < 0 ? a : zEnd, apply: () => applyDdd(h, sign, s2, s3, s4, s5) };
  });
}

function applyDdd(h: DateHash, sign: string, s2: string, s3: string | undefined, s4: string | undefined, s5: string | undefined): void {
  const n = (from: number, len: number) => toInt(s2.slice(from, from + len));
  const signed = (y: number) => (sign === '-' ? -y : y);
  const l2 = s2.length;
  const timeOnly = s3 === undefined && s4 !== undefined;
  const fromEnd = (fields: (keyof DateHash)[]) => fields.forEach((f, k) => ((h[f] as number) = n(l2 - 2 * (k + 1), 2)));
  switch (l2) {
    case 2:
      if (timeOnly) h.sec = n(0, 2);
      else h.mday = n(0, 2);
      break;
    case 4:
      if (timeOnly) fromEnd(['sec', 'min']);
      else ((h.mon = n(0, 2)), (h.mday = n(2, 2)));
      break;
    case 6:
      if (timeOnly) fromEnd(['sec', 'min', 'hour']);
      else ((h.year = signed(n(0, 2))), (h.mon = n(2, 2)), (h.mday = n(4, 2)));
      break;
    case 8:
    case 10:
    case 12:
    case 14:
      if (timeOnly) {
        fromEnd(['sec', 'min', 'hour', 'mday']);
        if (l2 >= 10) h.mon = n(l2 - 10, 2);
        if (l2 === 12) h.year = signed(n(0, 2));
        if (l2 === 14) ((h.year = signed(n(0, 4))), (h._comp = false));
      } else {
        h.year = signed(n(0, 4));
        h.mon = n(4, 2);
        h.mday = n(6, 2);
        if (l2 >= 10) h.hour = n(8, 2);
        if (l2 >= 12) h.min = n(10, 2);
        if (l2 >= 14) h.sec = n(12, 2);
        h._comp = false;
      }
      break;
    case 3:
      if (timeOnly) ((h.sec = n(1, 2)), (h.min = n(0, 1)));
      else h.yday = n(0, 3);
      break;
    case 5:
      if (timeOnly) ((h.sec = n(3, 2)), (h.min = n(1, 2)), (h.hour = n(0, 1)));
      else ((h.year = signed(n(0, 2))), (h.yday = n(2, 3)));
      break;
    case 7:
      if (timeOnly) ((h.sec = n(5, 2)), (h.min = n(3, 2)), (h.hour = n(1, 2)), (h.mday = n(0, 1)));
      else ((h.year = signed(n(0, 4))), (h.yday = n(4, 3)));
      break;
  }
  if (s3 !== undefined && [2, 4, 6].includes(s3.length)) {
    const t = (from: number) => toInt(s3.slice(from, from + 2));
    const l3 = s3.length;
    if (s4 !== undefined) {
      h.sec = t(l3 - 2);
      if (l3 >= 4) h.min = t(l3 - 4);
      if (l3 >= 6) h.hour = t(l3 - 6);
    } else {
      h.hour = t(0);
      if (l3 >= 4) h.min = t(2);
      if (l3 >= 6) h.sec = t(4);
    }
  }
  if (s4 !== undefined) h.sec_fraction = s4 === '' ? 0 : toInt(s4) / 10 ** s4.length;
  if (s5 !== undefined) applyBracketZone(h, s5);
}

/** A compact zone; "[-5:EST]" names the zone after the colon and gives the offset before it. */
function applyBracketZone(h: DateHash, s5: string): void {
  h.zone = s5;
  if (s5[0] !== '[') return;
  const inner = s5.slice(1, -1);
  const colon = inner.indexOf(':');
  if (colon >= 0) {
    h.zone = inner.slice(colon + 1);
    h.offset = zoneToOffset(inner.slice(0, colon));
  } else {
    h.zone = inner;
    h.offset = zoneToOffset(isDigit(inner[0]) ? `+${inner}` : inner);
  }
}
