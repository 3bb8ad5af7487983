// Creating namespaces (a user's personal one, or a group) with their ancestor rows.
import type { Tx } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { NamespaceRow } from '../../store/rows.js';
import { now } from '../../store/time.js';

export interface NewNamespace {
  kind: 'user' | 'group';
  name: string;
  path: string;
  ownerId?: number | null;
  parent?: NamespaceRow | null;
  description?: string;
  visibilityLevel?: number;
  requestAccessEnabled?: boolean;
  lfsEnabled?: boolean;
}

export async function createNamespace(tx: Tx, n: NewNamespace): Promise<NamespaceRow> {
  const stamp = now();
  const id = await insertReturningId(tx, 'namespaces', {
    kind: n.kind,
    name: n.name,
    path: n.path,
    full_path: n.parent ? `${n.parent.full_path}/${n.path}` : n.path,
    full_name: n.parent ? `${n.parent.full_name} / ${n.name}` : n.name,
    owner_id: n.ownerId ?? null,
    parent_id: n.parent?.id ?? null,
    description: n.description ?? '',
    visibility_level: n.visibilityLevel ?? 20,
    request_access_enabled: n.requestAccessEnabled ?? false,
    lfs_enabled: n.lfsEnabled ?? true,
    created_at: stamp,
    updated_at: stamp,
  });
  await tx('namespace_ancestors').insert({ namespace_id: id, ancestor_id: id, depth: 0 });
  if (n.parent) {
    await tx.raw(
      `INSERT INTO namespace_ancestors (namespace_id, ancestor_id, depth)
       SELECT ?, ancestor_id, depth + 1 FROM namespace_ancestors WHERE namespace_id = ?`,
      [id, n.parent.id],
    );
  }
  return tx('namespaces').where({ id }).first();
}
