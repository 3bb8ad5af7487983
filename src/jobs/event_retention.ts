// The daily removal of events older than a year (GitLab's PruneOldEventsWorker; the spec's
// "events older than one year are removed"). The readers never show older events anyway
// (src/finders/events.ts), so a run that is late or fails changes nothing a client sees.
import type { Deps } from '../deps.js';
import { pruneOldEvents } from '../services/events.js';
import { startDailyJob, type DailyJob } from './daily.js';

export function startEventRetention(deps: Deps): DailyJob {
  return startDailyJob(deps, 'event retention', (at) => pruneOldEvents(deps.db, at));
}
