// Character tests and small scanners shared by the Date._parse port (date_parse.ts). The
// port reads a string as an array of characters and walks it by hand, with no regular
// expression over the input, so its cost stays linear per start position on a bounded string.

/** A string being parsed, one character per element; passes replace what they read by a space. */
export type Chars = string[];

const ALPHA = /^\p{Alphabetic}$/u;
const ALNUM = /^[\p{Alphabetic}\p{Nd}]$/u;
const WORD = /^[\p{L}\p{M}\p{Nd}\p{Pc}]$/u;

export function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

/** A word character as Ruby's `\b` sees it in a UTF-8 string: letters, marks, digits, `_`. */
export function isWord(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  if (ch < '\u0080') return isDigit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_';
  return WORD.test(ch);
}

/** `[[:alpha:]]` (Unicode letters). */
export function isAlpha(ch: string | undefined): boolean {
  return ch !== undefined && ALPHA.test(ch);
}

/** `[[:alnum:]]` (Unicode letters and decimal digits). */
export function isAlnum(ch: string | undefined): boolean {
  return ch !== undefined && ALNUM.test(ch);
}

/** C's isalpha in the C locale: ASCII letters only. */
export function isAsciiAlpha(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

/** ASCII lower case of one character (Ruby's case-insensitive match of ASCII words). */
export function lower(ch: string | undefined): string {
  return ch !== undefined && ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : (ch ?? '');
}

/** `\b` before index i. */
export function boundary(c: Chars, i: number): boolean {
  return isWord(c[i - 1]) !== isWord(c[i]);
}

/** The index after the run of digits starting at i. */
export function digitsEnd(c: Chars, i: number): number {
  let e = i;
  while (isDigit(c[e])) e++;
  return e;
}

/** The index after the spaces starting at i (after normalising, the only blank is ' '). */
export function skipSpaces(c: Chars, i: number): number {
  let e = i;
  while (c[e] === ' ') e++;
  return e;
}

/** Whether `word` (lower case ASCII) is at i, ignoring case. */
export function wordAt(c: Chars, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (lower(c[i + k]) !== word[k]) return false;
  return true;
}

/** `'?-?\d+` at i (`sign` also allows '+'): the end index, or -1. */
export function signedNumberEnd(c: Chars, i: number, signs = '-'): number {
  let p = i;
  if (c[p] === "'") p++;
  if (c[p] !== undefined && signs.includes(c[p])) p++;
  return isDigit(c[p]) ? digitsEnd(c, p) : -1;
}

/** `'?\d+` at i: the end index, or -1. */
export function unsignedNumberEnd(c: Chars, i: number): number {
  const p = c[i] === "'" ? i + 1 : i;
  return isDigit(c[p]) ? digitsEnd(c, p) : -1;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The month (1–12) whose abbreviation is at i, or 0. */
export function monthAt(c: Chars, i: number): number {
  const three = lower(c[i]) + lower(c[i + 1]) + lower(c[i + 2]);
  return MONTHS.indexOf(three) + 1;
}

export function text(c: Chars, from: number, to: number): string {
  return c.slice(from, to).join('');
}

/** Ruby's String#to_i of a signed digit string ("" and "-" are 0). */
export function toInt(s: string): number {
  const n = Number.parseInt(s, 10);
  return Number.isNaN(n) ? 0 : n;
}

/** What a pass found at a start index: the end of the match and what to record. */
export type Found = { end: number; apply: () => void } | null;

/** Runs `at` from each start index; the first match is recorded and blanked to one space. */
export function firstMatch(c: Chars, at: (i: number) => Found): boolean {
  for (let i = 0; i <= c.length; i++) {
    const found = at(i);
    if (found) {
      found.apply();
      c.splice(i, found.end - i, ' ');
      return true;
    }
  }
  return false;
}
