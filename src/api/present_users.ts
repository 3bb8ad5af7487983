// Rendering users in a response: what a view shows beyond the row (the personal project
// count behind `can_create_project`; custom attributes when an admin asks) is loaded by the
// finder, one query per kind for a page, then the entity renders.
import type { Conn } from '../store/db.js';
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import { personalProjectCounts, userCustomAttributes, userIdentities } from '../finders/users.js';
import type { IdentityView } from '../store/extras.js';
import { userInView, type UserView } from '../entities/user.js';

export async function presentUsers(db: Conn, urls: Urls, rows: UserRow[], view: UserView, opts: { customAttributes?: boolean } = {}) {
  const ids = rows.map((u) => u.id);
  const full = view === 'public' || view === 'admin';
  const [counts, identities, attributes] = await Promise.all([
    full ? personalProjectCounts(db, ids) : new Map<number, number>(),
    full ? userIdentities(db, ids) : new Map<number, IdentityView[]>(),
    opts.customAttributes ? userCustomAttributes(db, ids) : undefined,
  ]);
  return rows.map((u) => userInView(u, urls, view, counts.get(u.id) ?? 0, attributes ? (attributes.get(u.id) ?? []) : undefined, identities.get(u.id)));
}

export async function presentUser(db: Conn, urls: Urls, row: UserRow, view: UserView, opts: { customAttributes?: boolean } = {}) {
  return (await presentUsers(db, urls, [row], view, opts))[0];
}
