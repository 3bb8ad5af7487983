// Time zone names and offsets as Ruby's Date._parse reads them (date_zone_to_diff): a zone
// abbreviation from its table ("EST", "CEST", "Z", the military letters), with " daylight
// time", " standard time" or " dst" after it, or a numeric offset ("+05:30", "-0500",
// "+5", "GMT+2", "+5.5"). GitLab 10.8 parses every date through that function (Rails 4.2 casts,
// Grape's DateTime), so a client's zone means here what it meant there. The table holds the
// abbreviations clients send; Ruby's longer names ("eastern", "w. europe") are left out, and an
// unknown word gives no offset (null), as Ruby's does.

const HOUR = 3600;

/** Abbreviation → offset in hours (Ruby's zonetab, the entries in common use). */
const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  wt: 0,
  at: -2,
  bt: 3,
  gmt: 0,
  z: 0,
  wet: 0,
  bst: 1,
  west: 1,
  cet: 1,
  met: 1,
  mewt: 1,
  mez: 1,
  fwt: 1,
  swt: 1,
  cest: 2,
  mest: 2,
  mesz: 2,
  fst: 2,
  sst: -11,
  eet: 2,
  eest: 3,
  msk: 3,
  msd: 4,
  ist: 5.5,
  sgt: 8,
  hkt: 8,
  awst: 8,
  wast: 2,
  wadt: 8,
  cct: 6.5,
  jst: 9,
  kst: 9,
  acst: 9.5,
  cast: 8,
  acdt: 10.5,
  aest: 10,
  east: -6,
  aedt: 11,
  eadt: 11,
  gst: 10,
  nzst: 12,
  nzt: 12,
  idle: 12,
  nzdt: 13,
  ast: -4,
  adt: -3,
  est: -5,
  edt: -4,
  cst: -6,
  cdt: -5,
  mst: -7,
  mdt: -6,
  pst: -8,
  pdt: -7,
  akst: -9,
  akdt: -8,
  yst: -9,
  ydt: -8,
  hst: -10,
  hast: -10,
  hadt: -9,
  cat: 2,
  ahst: -10,
  nt: -11,
  idlw: -12,
  nst: -2.5,
  ndt: -1.5,
  brt: -3,
  art: -3,
  clt: -4,
  sast: 2,
  eat: 3,
  wat: 1,
  // Names that come before " standard time" / " daylight time".
  eastern: -5,
  central: -6,
  mountain: -7,
  pacific: -8,
  alaskan: -9,
  hawaiian: -10,
  atlantic: -4,
  greenwich: 0,
  'w. europe': 1,
  'central europe': 1,
  romance: 1,
  'e. europe': 2,
  gtb: 2,
  russian: 3,
  'aus eastern': 10,
  'aus central': 9.5,
  'new zealand': 12,
  india: 5.5,
  china: 8,
  tokyo: 9,
  korea: 9,
  // Military letters (J is local time, so absent).
  a: 1,
  b: 2,
  c: 3,
  d: 4,
  e: 5,
  f: 6,
  g: 7,
  h: 8,
  i: 9,
  k: 10,
  l: 11,
  m: 12,
  n: -1,
  o: -2,
  p: -3,
  q: -4,
  r: -5,
  s: -6,
  t: -7,
  u: -8,
  v: -9,
  w: -10,
  x: -11,
  y: -12,
};

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

/** Removes a trailing " <word>" (any spacing, any case); the rest, or null when absent. */
function withoutLastWord(s: string, word: string): string | null {
  const lower = s.toLowerCase();
  if (!lower.endsWith(word)) return null;
  const rest = s.slice(0, s.length - word.length);
  if (rest === '' || rest[rest.length - 1] !== ' ') return null;
  return rest.trimEnd();
}

/** Leading decimal digits from `i` (strtoul): value and end index. */
function digitsAt(s: string, i: number): { value: number; end: number } {
  let end = i;
  while (isDigit(s[end])) end++;
  return { value: end > i ? Number(s.slice(i, end)) : 0, end };
}

/** The offset in seconds Ruby derives from a zone string, or null when it means none. */
export function zoneToOffset(zone: string): number | null {
  let s = zone;
  let dst = false;
  const beforeTime = withoutLastWord(s, 'time');
  if (beforeTime !== null) {
    const standard = withoutLastWord(beforeTime, 'standard');
    const daylight = withoutLastWord(beforeTime, 'daylight');
    if (standard !== null) s = standard;
    else if (daylight !== null) {
      s = daylight;
      dst = true;
    }
  } else {
    const beforeDst = withoutLastWord(s, 'dst');
    if (beforeDst !== null) {
      s = beforeDst;
      dst = true;
    }
  }
  const name = s
    .split(' ')
    .filter((w) => w !== '')
    .join(' ')
    .toLowerCase();
  const hours = Object.prototype.hasOwnProperty.call(ZONES, name) ? ZONES[name] : undefined;
  if (hours !== undefined) return hours * HOUR + (dst ? HOUR : 0);
  return numericOffset(s);
}

function numericOffset(zone: string): number | null {
  let s = zone;
  if (s.length > 3 && /^(?:gmt|utc)/i.test(s)) s = s.slice(3);
  const sign = s[0];
  if (sign !== '+' && sign !== '-') return null;
  s = s.slice(1);
  const negative = sign === '-';
  const hour = digitsAt(s, 0);
  let seconds: number;
  if (s[hour.end] === ':') {
    const min = digitsAt(s, hour.end + 1);
    const sec = s[min.end] === ':' ? digitsAt(s, min.end + 1).value : 0;
    seconds = hour.value * HOUR + min.value * 60 + sec;
  } else if (s[hour.end] === ',' || s[hour.end] === '.') {
    // A fraction of an hour: "+5.5" is five and a half hours.
    const frac = digitsAt(s, hour.end + 1);
    const digits = frac.end - (hour.end + 1);
    seconds = hour.value * HOUR + (frac.value * HOUR) / 10 ** digits;
  } else if (s.length > 2) {
    // Packed digits: "0530" or "530", then seconds.
    const first = 2 - (s.length % 2);
    const part = (from: number, len: number) => digitsAt(s.slice(from, from + len), 0).value;
    seconds = part(0, first) * HOUR + (s.length >= 3 ? part(first, 2) * 60 : 0) + (s.length >= 5 ? part(first + 2, 2) : 0);
  } else {
    seconds = hour.value * HOUR;
  }
  return negative ? -seconds : seconds;
}
