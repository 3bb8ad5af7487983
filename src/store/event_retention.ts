// How long stored events are kept: a year (GitLab's PruneOldEventsWorker; the spec's
// retention limit). The pruning job deletes older ones (services/activity/events.ts) and readers never
// show them (finders/events.ts), both from this one cutoff.

/** The oldest created_at still kept, as of `at`. */
export function retentionCutoff(at: Date = new Date()): string {
  const cutoff = new Date(at.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - 1);
  return cutoff.toISOString();
}
