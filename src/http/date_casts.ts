// What GitLab 10.8 makes of a date or time parameter, from Ruby's Date._parse (date_parse.ts):
//  - railsDate: a `type: String` parameter stored in a date column (milestone due_date and
//    start_date, issue due_date): Rails 4.2 casts it, and what it cannot read becomes nil,
//    silently — the model has no date validation to refuse it.
//  - railsTime: a `type: String` parameter stored in a datetime column (a note's created_at):
//    ActiveSupport's Time.zone.parse (UTC), missing date parts taken from today; nil when
//    unreadable.
//  - grapeDate / grapeDateTime: a `type: Date` / `type: DateTime` parameter, which Grape
//    coerces with Date.parse / DateTime.parse (two-digit years completed, missing parts from
//    today); what they cannot read is Grape's "is invalid".
// Dates answer `YYYY-MM-DD`, times the API's ISO 8601 UTC. Years outside 1–9999 are refused
// (10.8's database would have failed on them); dates before 1582 are read in the proleptic
// Gregorian calendar, where Ruby would switch to the Julian one.
import { rubyDateParse, type DateHash } from './date_parse.js';

const DAY_MS = 86_400_000;

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** Days since 1970-01-01 of a valid civil date, or null. */
function civilDay(y: number, m: number, d: number): number | null {
  if (!Number.isInteger(y) || y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return Math.round(date.getTime() / DAY_MS);
}

function dayToDate(day: number): string | null {
  const date = new Date(day * DAY_MS);
  const y = date.getUTCFullYear();
  if (y < 1 || y > 9999) return null;
  return `${String(y).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}

function today(now: Date): { day: number; year: number; mon: number; mday: number; wday: number } {
  return { day: Math.floor(now.getTime() / DAY_MS), year: now.getUTCFullYear(), mon: now.getUTCMonth() + 1, mday: now.getUTCDate(), wday: now.getUTCDay() };
}

/** Rails 4.2's cast of a string to a date column: the date, or null (nil). */
export function railsDate(raw: string): string | null {
  if (raw === '') return null;
  const h = rubyDateParse(raw, false);
  if (!h || h.year === undefined || h.year === 0 || h.mon === undefined || h.mday === undefined) return null;
  const day = civilDay(h.year, h.mon, h.mday);
  return day === null ? null : dayToDate(day);
}

/** ActiveSupport 4.2's Time.zone.parse in UTC (a string cast to a datetime column): the time, or null. */
export function railsTime(raw: string, now = new Date()): string | null {
  const h = rubyDateParse(raw, false);
  if (!h || Object.keys(h).length === 0) return null;
  const t = today(now);
  const [year, mon, mday] = [h.year ?? t.year, h.mon ?? t.mon, h.mday ?? t.mday];
  const [hour, min, sec] = [h.hour ?? 0, h.min ?? 0, h.sec ?? 0];
  const offset = h.offset ?? 0;
  // Ruby's Time.new: a day up to 31 rolls into the next month; hour 24 only on the hour.
  if (mon < 1 || mon > 12 || mday < 1 || mday > 31 || hour < 0 || hour > 24 || min < 0 || min > 59 || sec < 0 || sec > 60) return null;
  if (hour === 24 && (min > 0 || sec > 0)) return null;
  if (Math.abs(offset) >= 86_400 || year < 1 || year > 9999) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, mon - 1, mday);
  date.setUTCHours(hour, min, sec, Math.floor((h.sec_fraction ?? 0) * 1000));
  return instant(date.getTime() - offset * 1000);
}

function instant(ms: number): string | null {
  const date = new Date(ms);
  const y = date.getUTCFullYear();
  return Number.isNaN(ms) || y < 1 || y > 9999 ? null : date.toISOString();
}

/** Ruby's rt_complete_frags and rt__valid_date_frags_p: the day a hash names, or null. */
function dayOf(h: DateHash, forDateTime: boolean, now: Date): number | null {
  const t = today(now);
  const patterns: [string, (keyof DateHash)[]][] = [
    ['time', ['hour', 'min', 'sec']],
    ['ordinal', ['year', 'yday', 'hour', 'min', 'sec']],
    ['civil', ['year', 'mon', 'mday', 'hour', 'min', 'sec']],
    ['commercial', ['cwyear', 'cweek', 'cwday', 'hour', 'min', 'sec']],
    ['wday', ['wday', 'hour', 'min', 'sec']],
    // Ruby's week-number patterns (year, %U/%W week, weekday): Date._parse never gives a week
    // number, but a year and a weekday still count for them, and they win the tie over `ordinal`.
    ['wnum0', ['year', 'wday', 'hour', 'min', 'sec']],
    ['wnum1', ['year', 'wday', 'hour', 'min', 'sec']],
    ['', ['cwyear', 'cweek', 'wday', 'hour', 'min', 'sec']],
  ];
  let best = 0;
  let kind = '';
  let keys: (keyof DateHash)[] = [];
  for (const [k, fields] of patterns) {
    const n = fields.filter((f) => h[f] !== undefined).length;
    if (n > best) [best, kind, keys] = [n, k, fields];
  }
  const f = { ...h };
  let fixedDay: number | null = null;
  if (best > 0 && best < keys.length) {
    if (kind === 'ordinal') {
      f.year ??= t.year;
      f.yday ??= 1;
    } else if (kind === 'civil' || kind === 'commercial') {
      const parts = kind === 'civil' ? (['year', 'mon', 'mday'] as const) : (['cwyear', 'cweek', 'cwday'] as const);
      const fromToday = kind === 'civil' ? [t.year, t.mon, t.mday] : isoWeekOf(t.day);
      for (let k = 0; k < parts.length && f[parts[k]] === undefined; k++) f[parts[k]] = fromToday[k];
      f[parts[1]] ??= 1;
      f[parts[2]] ??= 1;
    } else if (kind === 'wday') {
      fixedDay = t.day - t.wday + (f.wday ?? 0);
    } else if (kind === 'wnum0' || kind === 'wnum1') {
      // Week 0 of the year (the week number is never given), on the weekday given.
      return weekZeroDay(f.year ?? t.year, f.wday ?? (kind === 'wnum0' ? 0 : 1), kind === 'wnum1');
    }
  }
  if (best > 0 && kind === 'time' && forDateTime) fixedDay = t.day;
  if (fixedDay !== null) return fixedDay;
  if (f.year !== undefined && f.yday !== undefined) {
    const start = civilDay(f.year, 1, 1);
    if (start !== null && f.yday >= 1 && f.yday <= (isLeap(f.year) ? 366 : 365)) return start + f.yday - 1;
  }
  if (f.year !== undefined && f.mon !== undefined && f.mday !== undefined) {
    const day = civilDay(f.year, f.mon, f.mday);
    if (day !== null) return day;
  }
  const cwday = f.cwday ?? (f.wday === 0 ? 7 : f.wday);
  if (cwday !== undefined && f.cweek !== undefined && f.cwyear !== undefined) return commercialDay(f.cwyear, f.cweek, cwday);
  return null;
}

/** Sunday (or Monday) first: the day of week 0 of `year` with that weekday, or null outside the year. */
function weekZeroDay(year: number, wday: number, mondayFirst: boolean): number | null {
  const jan1 = civilDay(year, 1, 1);
  if (jan1 === null) return null;
  const d = mondayFirst ? (wday + 6) % 7 : wday;
  const anchor = jan1 + 6 - (mondayFirst ? 1 : 0);
  const weekStart = jan1 + 6 - new Date(anchor * DAY_MS).getUTCDay() - 7;
  const day = weekStart + d;
  return day >= jan1 ? day : null;
}

/** ISO week-numbering year, week and weekday (Monday 1) of a day. */
function isoWeekOf(day: number): [number, number, number] {
  const wday = ((new Date(day * DAY_MS).getUTCDay() + 6) % 7) + 1;
  const thursday = day - wday + 4;
  const year = new Date(thursday * DAY_MS).getUTCFullYear();
  const jan1 = civilDay(year, 1, 1) ?? 0;
  return [year, Math.floor((thursday - jan1) / 7) + 1, wday];
}

function commercialDay(year: number, week: number, wday: number): number | null {
  const jan4 = civilDay(year, 1, 4);
  if (jan4 === null || wday < 1 || wday > 7 || week < 1) return null;
  const jan4wday = ((new Date(jan4 * DAY_MS).getUTCDay() + 6) % 7) + 1;
  const day = jan4 - jan4wday + 1 + (week - 1) * 7 + (wday - 1);
  return isoWeekOf(day)[0] === year ? day : null;
}

/** Date.parse(raw): the date, or null where Ruby raises. */
export function grapeDate(raw: string, now = new Date()): string | null {
  const h = rubyDateParse(raw, true);
  if (!h || Object.keys(h).length === 0) return null;
  const day = dayOf(h, false, now);
  return day === null ? null : dayToDate(day);
}

/** DateTime.parse(raw): the instant in UTC, or null where Ruby raises. */
export function grapeDateTime(raw: string, now = new Date()): string | null {
  const h = rubyDateParse(raw, true);
  if (!h || Object.keys(h).length === 0) return null;
  const day = dayOf(h, true, now);
  if (day === null) return null;
  const [hour, min] = [h.hour ?? 0, h.min ?? 0];
  const sec = Math.min(h.sec ?? 0, 59);
  if (hour > 24 || min > 59 || (hour === 24 && (min > 0 || sec > 0))) return null;
  // An offset of a day or more is ignored (Ruby warns "invalid offset is ignored").
  const offset = h.offset === undefined || h.offset === null || Math.abs(h.offset) > 86_400 ? 0 : Math.trunc(h.offset);
  const ms = day * DAY_MS + ((hour * 60 + min) * 60 + sec) * 1000 + Math.floor((h.sec_fraction ?? 0) * 1000) - offset * 1000;
  return instant(ms);
}

/** The civil date, in its own offset, of what grapeDateTime reads (DateTime#to_date). */
export function grapeDateTimeLocalDate(raw: string, now = new Date()): string | null {
  const h = rubyDateParse(raw, true);
  if (!h || Object.keys(h).length === 0 || grapeDateTime(raw, now) === null) return null;
  const day = dayOf(h, true, now);
  if (day === null) return null;
  return dayToDate(day + (h.hour === 24 ? 1 : 0));
}
