// A task run once a day in the server process (GitLab ran these as Sidekiq cron workers).
// The timers are unref'd: they never keep the process alive, and `stop` clears them on close.
// A pass that fails is logged and retried the next day; overlapping calls share one pass.
// With several processes on one database, a timer's pass runs only where it was claimed
// (src/jobs/claim.ts), so once a day in all.
import type { Deps } from '../deps.js';
import { claimRun } from './claim.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_PASS_MS = 60_000; // shortly after start, off the boot path

export interface DailyJob {
  /** One pass now (tests call it directly); resolves with the number of rows it removed. */
  run(at?: Date): Promise<number>;
  stop(): void;
}

export function startDailyJob(deps: Deps, name: string, work: (at?: Date) => Promise<number>, intervalMs = DAY_MS): DailyJob {
  let running: Promise<number> | null = null;
  const run = (at?: Date): Promise<number> => {
    if (!running) {
      running = work(at).finally(() => {
        running = null;
      });
    }
    return running;
  };
  const tick = () => {
    claimRun(deps.db, name, intervalMs)
      .then((mine) => (mine ? run() : 0))
      .catch((err) => deps.log.warn({ err }, `${name} failed`));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const first = setTimeout(tick, FIRST_PASS_MS);
  first.unref();
  return {
    run,
    stop() {
      clearInterval(timer);
      clearTimeout(first);
    },
  };
}
