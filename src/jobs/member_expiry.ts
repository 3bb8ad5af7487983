// The daily removal of memberships whose `expires_at` day has come (GitLab's
// RemoveExpiredMembersWorker, queue cronjob). A project member's removal is recorded as
// GitLab's "removed due to membership expiration from" event (src/services/members/members.ts). The
// payload may name the day to expire as of (`at`, ISO 8601); by default, the moment it runs.
import { removeExpiredMembers } from '../services/members/members.js';
import { registerCron, registerJob } from './registry.js';

export const REMOVE_EXPIRED_MEMBERS = 'remove_expired_members';

registerJob<{ at?: string }>(REMOVE_EXPIRED_MEMBERS, {
  queue: 'cronjob',
  maxAttempts: 3,
  handler: (deps, payload) => removeExpiredMembers(deps.db, payload?.at ? new Date(payload.at) : new Date()),
});

registerCron(REMOVE_EXPIRED_MEMBERS, { kind: REMOVE_EXPIRED_MEMBERS, everyMs: 24 * 3600_000 });
