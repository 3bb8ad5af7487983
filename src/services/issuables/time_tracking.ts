// Time tracking of issues and merge requests (GitLab 10.8's TimeTrackable, the API's time
// tracking endpoints and Gitlab::TimeTrackingFormatter). Durations are parsed as GitLab's
// ChronicDuration with its custom config does it: 8-hour days, 5-day weeks, 30-day months,
// hours when no unit is given, a leading "-" negating; what parses to nothing (or zero) is
// invalid. Each change writes GitLab's system note, moves the target's updated_at and marks
// the actor's todos on it done, in one transaction. The caller has checked the permissions.
import type { Conn } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { humanTime } from '../../store/durations.js';
import { createSystemNote, type NoteTarget } from '../notes/notes.js';
import { announce } from '../notify.js';

const HOUR = 3600;
const DAY = 8 * HOUR;
const UNIT_SECONDS: Record<string, number> = {
  seconds: 1,
  minutes: 60,
  hours: HOUR,
  days: DAY,
  weeks: 5 * DAY,
  months: 30 * DAY,
  years: 31557600,
};
const UNIT_WORDS: Record<string, string> = {};
for (const [unit, words] of Object.entries({
  seconds: 'seconds second secs sec s',
  minutes: 'minutes minute mins min m',
  hours: 'hours hour hrs hr h',
  days: 'days day dy d',
  weeks: 'weeks week wks wk w',
  months: 'months mo mos month',
  years: 'years year yrs yr y',
})) {
  for (const w of words.split(' ')) UNIT_WORDS[w] = unit;
}
/** "h:m:s"-style units, from the right (weeks are skipped, as ChronicDuration does). */
const CHRONO_UNITS = ['seconds', 'minutes', 'hours', 'days', 'months', 'years'];
// The numbers of `[0-9]*\.?[0-9]+`, written so that no two quantifiers trade digits (that
// form backtracked quadratically on a long run of digits).
const NUMBERS = /[0-9]+(?:\.[0-9]+)?|\.[0-9]+/g;
/** A word holds a number exactly when it holds a digit. */
const HAS_NUMBER = /[0-9]/;
/** `N:N` somewhere ("1:30", "2:.5"): a digit, a colon, then a number. */
const CHRONO = /[0-9]:\.?[0-9]/;
/** Larger values would not fit GitLab's integer columns. */
const MAX_SECONDS = 2147483647;

/** Seconds of a GitLab duration string ("1w 2d", "3h30m", "90m", "-2h", "1.5"), or null when invalid. */
export function parseDuration(input: string): number | null {
  let text = input;
  const negative = text.startsWith('-');
  if (negative) text = text.slice(1);
  text = text.toLowerCase();
  const compact = text.replace(/ /g, '');
  if (CHRONO.test(compact)) {
    const parts = compact.split(':').reverse();
    if (parts.length > CHRONO_UNITS.length) return null;
    text = parts
      .map((v, k) => `${v} ${CHRONO_UNITS[k]}`)
      .reverse()
      .join(' ');
  }
  text = text
    .replace(NUMBERS, (n) => ` ${n} `)
    .replace(/ +/g, ' ')
    .trim();
  const words: string[] = [];
  for (const word of text.split(' ')) {
    if (HAS_NUMBER.test(word)) {
      words.push(word);
      continue;
    }
    const unit = UNIT_WORDS[word.replace(/^,/, '').replace(/,$/, '')];
    if (unit) words.push(unit);
  }
  if (words.length && UNIT_SECONDS[words[0]]) words.unshift('1');
  let seconds = 0;
  words.forEach((word, k) => {
    if (!HAS_NUMBER.test(word)) return;
    const unit = words[k + 1] ?? 'hours';
    seconds += Number.parseFloat(word) * (UNIT_SECONDS[unit] ?? 0);
  });
  if (seconds === 0 || !Number.isFinite(seconds)) return null;
  const whole = Math.trunc(seconds);
  if (whole > MAX_SECONDS) return null;
  return negative ? -whole : whole;
}

export interface TimeStats {
  time_estimate: number;
  total_time_spent: number;
  human_time_estimate: string | null;
  human_total_time_spent: string | null;
}

/** GitLab's IssuableTimeStats entity. */
export function timeStatsEntity(row: { time_estimate: number; total_time_spent: number }): TimeStats {
  return {
    time_estimate: row.time_estimate,
    total_time_spent: row.total_time_spent,
    human_time_estimate: humanTime(row.time_estimate),
    human_total_time_spent: humanTime(row.total_time_spent),
  };
}

function tableOf(target: NoteTarget): 'issues' | 'merge_requests' {
  return target.type === 'Issue' ? 'issues' : 'merge_requests';
}

async function load(db: Conn, target: NoteTarget): Promise<{ time_estimate: number; total_time_spent: number }> {
  return db(tableOf(target)).where('id', target.id).first('time_estimate', 'total_time_spent');
}

function todoTarget(target: NoteTarget) {
  return { type: target.type, id: target.id, projectId: target.projectId };
}

/** Sets the estimate (0 removes it); a note only when it changed. */
export async function setTimeEstimate(db: Conn, target: NoteTarget, actor: UserRow, seconds: number): Promise<TimeStats> {
  return db.transaction(async (tx) => {
    const before = await load(tx, target);
    if (before.time_estimate !== seconds) {
      await tx(tableOf(target)).where('id', target.id).update({ time_estimate: seconds, updated_at: now() });
      await createSystemNote(tx, target, actor, seconds === 0 ? 'removed time estimate' : `changed time estimate to ${humanTime(seconds)}`);
      await announce(tx, { name: 'issuableTouched', target: todoTarget(target), actorId: actor.id });
    }
    return timeStatsEntity(await load(tx, target));
  });
}

export type SpendResult = { stats: TimeStats; errors?: undefined } | { stats?: undefined; errors: Record<string, string[]> };

/** Adds (or, negative, subtracts) spent time; `reset` takes it all back. The total never drops below zero. */
export async function spendTime(db: Conn, target: NoteTarget, actor: UserRow, seconds: number | 'reset'): Promise<SpendResult> {
  return db.transaction(async (tx) => {
    const before = await load(tx, target);
    let total: number;
    let body: string;
    if (seconds === 'reset') {
      total = 0;
      body = 'removed time spent';
    } else {
      if (seconds < 0 && -seconds > before.total_time_spent) {
        return { errors: { time_spent: ['Time to subtract exceeds the total time spent'] } };
      }
      total = before.total_time_spent + seconds;
      body = `${seconds > 0 ? 'added' : 'subtracted'} ${humanTime(Math.abs(seconds))} of time spent`;
    }
    await tx(tableOf(target)).where('id', target.id).update({ total_time_spent: total, updated_at: now() });
    await createSystemNote(tx, target, actor, body);
    await announce(tx, { name: 'issuableTouched', target: todoTarget(target), actorId: actor.id });
    return { stats: timeStatsEntity(await load(tx, target)) };
  });
}
