// The daily removal of memberships whose `expires_at` day has come (GitLab's
// RemoveExpiredMembersWorker). A project member's removal is recorded as GitLab's "removed due
// to membership expiration from" event (src/services/members.ts).
import type { Deps } from '../deps.js';
import { removeExpiredMembers } from '../services/members.js';
import { startDailyJob, type DailyJob } from './daily.js';

export function startMemberExpiry(deps: Deps): DailyJob {
  return startDailyJob(deps, 'member expiry', (at) => removeExpiredMembers(deps.db, at));
}
