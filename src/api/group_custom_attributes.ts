// Custom attributes in group lists and GroupDetail (GitLab 10.8's Helpers::CustomAttributes),
// for those who may read them (read_custom_attribute: admins): `custom_attributes[key]=value`
// filters (all must match; finders/custom_attributes.ts) and `with_custom_attributes` adds
// each group's pairs, one query a page.
import type { Conn } from '../store/db.js';
import type { NamespaceRow } from '../store/rows.js';
import { groupCustomAttributes } from '../finders/custom_attributes.js';

/** Adds `custom_attributes` to each rendered group (before `statistics`, in GitLab's key order). */
export async function withCustomAttributes(db: Conn, groups: NamespaceRow[], rendered: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const attributes = await groupCustomAttributes(
    db,
    groups.map((g) => g.id),
  );
  return rendered.map((r, i) => {
    const { statistics, ...rest } = r;
    return { ...rest, custom_attributes: attributes.get(groups[i].id) ?? [], ...(statistics ? { statistics } : {}) };
  });
}
