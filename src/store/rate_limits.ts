// Fixed-window request counters shared by every worker process (the store behind the rate
// limits, as Rack::Attack's cache was GitLab's): a window starts at a multiple of the period
// since the epoch, each request adds one to its bucket's row in one atomic statement, and
// rows of windows that have ended are deleted now and then.
import type { Db } from './db.js';

/** Delete ended windows once every this many hits (per process). */
const PRUNE_EVERY = 1000;
let hitsSincePrune = 0;

export interface Window {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Seconds until the window ends. */
  resetIn: number;
}

/** Counts one request of `bucket` in the current window of `period` seconds. */
export async function countHit(db: Db, bucket: string, period: number, nowMs = Date.now()): Promise<Window> {
  const nowS = Math.floor(nowMs / 1000);
  const windowStart = Math.floor(nowS / period) * period;
  const expiresAt = windowStart + period;
  const rows: { hits: number | string }[] = await db('rate_limit_counters')
    .insert({ bucket, window_start: windowStart, hits: 1, expires_at: expiresAt })
    .onConflict(['bucket', 'window_start'])
    .merge({ hits: db.raw('rate_limit_counters.hits + 1') })
    .returning('hits');
  if (++hitsSincePrune >= PRUNE_EVERY) {
    hitsSincePrune = 0;
    await db('rate_limit_counters').where('expires_at', '<=', nowS).delete();
  }
  return { count: Number(rows[0]?.hits ?? 1), resetIn: expiresAt - nowS };
}
