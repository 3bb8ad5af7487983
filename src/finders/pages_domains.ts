// Custom Pages domains: a project's, by name (case-insensitive, as they are unique so), and
// every domain of the instance for the admins' list.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { PagesDomainRow } from '../store/pages_domain_rows.js';

export function projectPagesDomainsQuery(db: Conn, projectId: number): Knex.QueryBuilder {
  return db('pages_domains')
    .where({ project_id: projectId })
    .orderBy([{ column: 'domain' }, { column: 'id' }]);
}

export function allPagesDomainsQuery(db: Conn): Knex.QueryBuilder {
  return db('pages_domains').orderBy('id', 'asc');
}

export async function findPagesDomain(db: Conn, projectId: number, domain: string): Promise<PagesDomainRow | undefined> {
  return db('pages_domains').where({ project_id: projectId }).whereRaw('lower(domain) = ?', [domain.toLowerCase()]).first();
}

/** Whether another domain already has this name, whatever its case. */
export async function domainTaken(db: Conn, domain: string, exceptId?: number): Promise<boolean> {
  const q = db('pages_domains').whereRaw('lower(domain) = ?', [domain.toLowerCase()]);
  if (exceptId !== undefined) q.whereNot('id', exceptId);
  return !!(await q.first('id'));
}
