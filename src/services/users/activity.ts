// A user's `last_activity_on` (GitLab 10.8's Users::ActivityService): moved by a push event
// (activity/feed.ts), a git pull over HTTP or SSH and a git archive --remote over SSH
// (transport/), at most one write a day. Wharf has no sign-in (tokens only), 10.8's other caller.
import type { Conn } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';

export async function recordUserActivity(db: Conn, user: UserRow | null): Promise<void> {
  if (!user) return;
  const today = now().slice(0, 10);
  if (user.last_activity_on === today) return;
  await db('users').where({ id: user.id }).update({ last_activity_on: today });
}
