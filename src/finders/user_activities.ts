// The users active since a moment (GitLab 10.8's GET /user/activities): `last_activity_on` (a
// date) on or after it, oldest activity first. GitLab compares the date column with the moment
// as a timestamp, so a day counts from its midnight: a moment after midnight leaves its own day
// out. Ties are in id order, so that pages do not overlap.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';

/** The first day whose midnight (UTC) is at or after `since` (an ISO 8601 UTC instant). */
function firstDayFrom(since: string): string {
  const moment = new Date(since);
  const day = moment.toISOString().slice(0, 10);
  if (moment.getTime() === Date.parse(`${day}T00:00:00.000Z`)) return day;
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

export function activeUsersQuery(db: Conn, since: string): Knex.QueryBuilder {
  return db('users')
    .where('last_activity_on', '>=', firstDayFrom(since))
    .orderBy([{ column: 'last_activity_on' }, { column: 'id' }]);
}
