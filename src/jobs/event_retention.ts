// The daily removal of events older than a year (GitLab's PruneOldEventsWorker; the spec's
// "events older than one year are removed"). The readers never show older events anyway
// (src/finders/events.ts), so a run that is late or fails changes nothing a client sees. The
// timer is unref'd: it never keeps the process alive, and `stop` clears it on close.
import type { Deps } from '../deps.js';
import { pruneOldEvents } from '../services/events.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EventRetentionJob {
  /** One pass now (tests call it directly); resolves with the number of events removed. */
  run(at?: Date): Promise<number>;
  stop(): void;
}

export function startEventRetention(deps: Deps, intervalMs = DAY_MS): EventRetentionJob {
  let running: Promise<number> | null = null;
  const run = (at?: Date): Promise<number> => {
    if (!running) {
      running = pruneOldEvents(deps.db, at).finally(() => {
        running = null;
      });
    }
    return running;
  };
  const tick = () => {
    run().catch((err) => deps.log.warn({ err }, 'event retention failed')); // retried the next day
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  // The first pass shortly after start, off the boot path.
  const first = setTimeout(tick, 60_000);
  first.unref();
  return {
    run,
    stop() {
      clearInterval(timer);
      clearTimeout(first);
    },
  };
}
