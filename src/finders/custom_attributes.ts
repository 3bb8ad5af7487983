// Finding custom attributes (GitLab 10.8's CustomAttributesEndpoints and
// Helpers::CustomAttributes): the key/value pairs of one user, project or group, one of them
// by key, and for group lists the groups holding given pairs and each group's pairs, one
// query a page.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';

export type CustomAttributeSubject = 'user' | 'project' | 'group';
export type CustomAttribute = { key: string; value: string };

function attributesOf(db: Conn, type: CustomAttributeSubject, id: number): Knex.QueryBuilder {
  return db('custom_attributes').where({ subject_type: type, subject_id: id });
}

/** The subject's attributes, by key. */
export async function customAttributesOf(db: Conn, type: CustomAttributeSubject, id: number): Promise<CustomAttribute[]> {
  return attributesOf(db, type, id).orderBy('key');
}

export async function findCustomAttribute(db: Conn, type: CustomAttributeSubject, id: number, key: string): Promise<CustomAttribute | undefined> {
  return attributesOf(db, type, id).where({ key }).first();
}

/** Restricts a query on `namespaces` to the groups holding every given pair. */
export function whereGroupCustomAttributes(db: Conn, query: Knex.QueryBuilder, filters: Record<string, string>): void {
  for (const [key, value] of Object.entries(filters)) {
    query.whereExists(db('custom_attributes').select(db.raw('1')).where({ subject_type: 'group', key, value }).whereRaw('custom_attributes.subject_id = namespaces.id'));
  }
}

/** The custom attributes of the groups, by group id, each group's by key (one query). */
export async function groupCustomAttributes(db: Conn, groupIds: number[]): Promise<Map<number, CustomAttribute[]>> {
  const out = new Map<number, CustomAttribute[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return out;
  const rows: ({ subject_id: number } & CustomAttribute)[] = await db('custom_attributes').where({ subject_type: 'group' }).whereIn('subject_id', groupIds).orderBy('key');
  for (const r of rows) out.get(r.subject_id)?.push({ key: r.key, value: r.value });
  return out;
}
