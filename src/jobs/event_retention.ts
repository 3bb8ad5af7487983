// Removal of events older than a year (GitLab's PruneOldEventsWorker, queue cronjob, every six
// hours; the spec's "events older than one year are removed"). The readers never show older
// events anyway (src/finders/events.ts), so a run that is late or fails changes nothing a
// client sees. The payload may name the moment to prune as of (`at`, ISO 8601); by default,
// the moment it runs.
import { pruneOldEvents } from '../services/activity/events.js';
import { registerCron, registerJob } from './registry.js';

export const PRUNE_OLD_EVENTS = 'prune_old_events';

registerJob<{ at?: string }>(PRUNE_OLD_EVENTS, {
  queue: 'cronjob',
  maxAttempts: 3,
  handler: (deps, payload) => pruneOldEvents(deps.db, payload?.at ? new Date(payload.at) : new Date()),
});

registerCron(PRUNE_OLD_EVENTS, { kind: PRUNE_OLD_EVENTS, everyMs: 6 * 3600_000 });
