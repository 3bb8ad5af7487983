// Facts about the current user that every policy asks.
import type { UserRow } from '../store/rows.js';

export function isAdmin(user: UserRow | null | undefined): boolean {
  return !!user && !!user.admin && user.state === 'active';
}

/** Signed in and not external: the users who see internal projects and groups. */
export function isSignedInRegular(user: UserRow | null | undefined): boolean {
  return !!user && !user.external;
}

/** Admins see every user's private fields; users see their own. */
export function canSeePrivateUserFields(viewer: UserRow | null, subject: { id: number }): boolean {
  return isAdmin(viewer) || (!!viewer && viewer.id === subject.id);
}

/**
 * GET /users: anyone signed in may list users; anonymous callers only when asking for one
 * `username` (GitLab keeps the full list from the anonymous).
 */
export function canListUsers(viewer: UserRow | null, username: string | undefined): boolean {
  return !!viewer || (username !== undefined && username.trim() !== '');
}
