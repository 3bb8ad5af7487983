// A user's activity as GitLab 10.8's UserActivity entity shows it: the username and the day of
// their last activity, twice (`last_activity_at` is the older name of the same date).
import type { UserRow } from '../store/rows.js';

export function userActivity(u: UserRow) {
  return { username: u.username, last_activity_on: u.last_activity_on, last_activity_at: u.last_activity_on };
}
