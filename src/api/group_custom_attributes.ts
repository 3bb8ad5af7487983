// Custom attributes in group lists and GroupDetail (GitLab 10.8's Helpers::CustomAttributes),
// for those who may read them (read_custom_attribute: admins): `custom_attributes[key]=value`
// filters (all must match) and `with_custom_attributes` adds each group's pairs, one query a page.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { NamespaceRow } from '../store/rows.js';

type Attribute = { key: string; value: string };

/** Restricts a query on `namespaces` to the groups holding every given pair. */
export function whereCustomAttributes(db: Conn, query: Knex.QueryBuilder, filters: Record<string, string>): void {
  for (const [key, value] of Object.entries(filters)) {
    query.whereExists(
      db('custom_attributes')
        .select(db.raw('1'))
        .where({ subject_type: 'group', key, value })
        .whereRaw('custom_attributes.subject_id = namespaces.id'),
    );
  }
}

/** The custom attributes of the groups, by group id (one query). */
async function customAttributesOf(db: Conn, groups: NamespaceRow[]): Promise<Map<number, Attribute[]>> {
  const out = new Map<number, Attribute[]>(groups.map((g) => [g.id, []]));
  if (!groups.length) return out;
  const rows: ({ subject_id: number } & Attribute)[] = await db('custom_attributes')
    .where({ subject_type: 'group' })
    .whereIn('subject_id', groups.map((g) => g.id))
    .orderBy('key');
  for (const r of rows) out.get(r.subject_id)?.push({ key: r.key, value: r.value });
  return out;
}

/** Adds `custom_attributes` to each rendered group (before `statistics`, in GitLab's key order). */
export async function withCustomAttributes(db: Conn, groups: NamespaceRow[], rendered: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const attributes = await customAttributesOf(db, groups);
  return rendered.map((r, i) => {
    const { statistics, ...rest } = r;
    return { ...rest, custom_attributes: attributes.get(groups[i].id) ?? [], ...(statistics ? { statistics } : {}) };
  });
}
