// GET /user/activities (GitLab 10.8 lib/api/users.rb): for admins, the users whose last
// activity (a git pull over HTTP or SSH, a push: services/users/activity.ts) is on or after
// `from` (a DateTime; six months ago by default), oldest activity first, paginated.
import { route, type Route } from './core/route.js';
import type { UserRow } from '../store/rows.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { activeUsersQuery } from '../finders/user_activities.js';
import { userActivity } from '../entities/user_activity.js';

/** Six calendar months before now (Rails' `6.months.ago`: the 31st of August goes to the 28th or 29th of February). */
function sixMonthsAgo(): string {
  const d = new Date();
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 6);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.toISOString();
}

export const userActivityRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/user/activities',
    auth: 'admin',
    params: { from: p.datetime() },
    summary: 'Users active since `from` (admins; six months by default), with their last activity day',
    response: { schema: 'UserActivity', list: true },
    handler: async ({ ctx, deps, params: v }) => (await paginate<UserRow>(ctx, deps.db, activeUsersQuery(deps.db, v.from ?? sixMonthsAgo()))).map(userActivity),
  }),
];
