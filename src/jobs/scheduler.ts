// The periodic jobs (GitLab's cron workers: PruneOldEventsWorker, RemoveExpiredMembersWorker,
// …): every process checks once a minute and queues each one whose current period has no run
// yet. The run's unique key names the period (`cron:<name>:<period number>`), so however many
// processes check, one job per period exists: the first insert wins, the others are ignored.
import type { Conn } from '../store/db.js';
import { enqueueJob } from '../store/job_queue.js';
import { cronRun, registeredCrons } from './registry.js';

/** Queues the current period's run of every periodic job that has none; answers how many were queued. */
export async function scheduleCrons(db: Conn, at = new Date()): Promise<number> {
  let queued = 0;
  for (const [name, def] of registeredCrons()) {
    if ((await enqueueJob(db, def.kind, def.payload ?? {}, cronRun(name, def, at))) !== null) queued++;
  }
  return queued;
}
