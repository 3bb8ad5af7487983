// The daily removal of uploaded files no upload names any more (services/uploads/unreferenced.ts),
// a cron job of queue cronjob. The payload may name the moment to sweep as of (`at`, ISO 8601).
import { removeUnreferencedUploads } from '../services/uploads/unreferenced.js';
import { registerCron, registerJob } from './registry.js';

export const REMOVE_UNREFERENCED_UPLOADS = 'remove_unreferenced_uploads';

registerJob<{ at?: string }>(REMOVE_UNREFERENCED_UPLOADS, {
  queue: 'cronjob',
  maxAttempts: 3,
  handler: (deps, payload) => removeUnreferencedUploads(deps, payload?.at ? new Date(payload.at) : new Date()),
});

registerCron(REMOVE_UNREFERENCED_UPLOADS, { kind: REMOVE_UNREFERENCED_UPLOADS, everyMs: 24 * 3600_000 });
