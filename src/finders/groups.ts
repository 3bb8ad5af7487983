// Looking groups up by id or full path.
import type { Conn } from '../store/db.js';
import type { NamespaceRow } from '../store/rows.js';

/** Digits are an id; anything else a URL-decoded full path, case-insensitive. */
export async function findGroupByIdOrPath(db: Conn, idOrPath: string): Promise<NamespaceRow | undefined> {
  const q = db('namespaces').where({ kind: 'group' });
  if (/^\d+$/.test(idOrPath)) return q.where({ id: Number(idOrPath) }).first();
  return q.whereRaw('lower(full_path) = ?', [idOrPath.toLowerCase()]).first();
}
