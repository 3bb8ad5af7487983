// A job that does nothing (or waits `sleepMs`, at most a minute, then answers `echo`): the
// unit of the queue's benchmark (bench/jobs.ts) and the job the crash tests kill mid-run.
import { registerJob } from './registry.js';

interface NoopPayload {
  sleepMs?: number;
  echo?: unknown;
}

registerJob<NoopPayload>('noop', {
  queue: 'default',
  async handler(_deps, payload, ctx) {
    const ms = Math.min(Math.max(0, Number(payload?.sleepMs) || 0), 60_000);
    if (ms) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('stopped before the end'));
        });
      });
    }
    return payload?.echo ?? null;
  },
});
