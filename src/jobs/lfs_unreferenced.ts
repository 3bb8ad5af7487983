// The daily removal of Git LFS objects no project links (GitLab's RemoveUnreferencedLfsObjectsWorker,
// a cron job of queue cronjob). The payload may name the moment to sweep as of (`at`, ISO 8601).
import { removeUnreferencedLfsObjects } from '../services/lfs/unreferenced.js';
import { registerCron, registerJob } from './registry.js';

export const REMOVE_UNREFERENCED_LFS_OBJECTS = 'remove_unreferenced_lfs_objects';

registerJob<{ at?: string }>(REMOVE_UNREFERENCED_LFS_OBJECTS, {
  queue: 'cronjob',
  maxAttempts: 3,
  handler: (deps, payload) => removeUnreferencedLfsObjects(deps, payload?.at ? new Date(payload.at) : new Date()),
});

registerCron(REMOVE_UNREFERENCED_LFS_OBJECTS, { kind: REMOVE_UNREFERENCED_LFS_OBJECTS, everyMs: 24 * 3600_000 });
