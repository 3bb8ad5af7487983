// The database half of GitLab's readiness probe (`/-/readiness`, its db_check): one trivial
// query, which fails when the database cannot be reached.
import type { Conn } from '../store/db.js';

export async function pingDatabase(db: Conn): Promise<void> {
  await db.raw('select 1');
}
