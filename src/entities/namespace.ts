// Namespace: a user's personal namespace or a group, as GET /namespaces shows it.
import type { NamespaceRow } from '../store/rows.js';

/** `membersCount` is given only where the viewer may administer the group (GitLab's rule). */
export function namespaceEntity(ns: NamespaceRow, membersCount?: number) {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.full_path,
    parent_id: ns.parent_id,
    ...(membersCount === undefined ? {} : { members_count_with_descendants: membersCount }),
  };
}
