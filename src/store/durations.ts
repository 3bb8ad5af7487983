// GitLab's human rendering of a stored duration in seconds (time estimates and time spent,
// Gitlab::TimeTrackingFormatter.output over ChronicDuration): 8-hour days, 5-day weeks,
// 4-week months, as "1w 2d 3h 30m". A pure function of a stored value, shared by the
// entities that show `human_time_estimate` and the services that write system notes.

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 8 * HOUR; // GitLab's time tracking: 8-hour days, 5-day weeks
const WEEK = 5 * DAY;
const MONTH = 4 * WEEK;

/** GitLab's human time ("1h 30m", "1w 2d"); null for zero. */
export function humanTime(seconds: number): string | null {
  if (!seconds) return null;
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(seconds);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['mo', MONTH],
    ['w', WEEK],
    ['d', DAY],
    ['h', HOUR],
    ['m', MINUTE],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return sign + parts.join(' ');
}
