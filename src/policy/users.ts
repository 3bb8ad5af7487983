// Facts about the current user that every policy asks.
import type { UserRow } from '../store/rows.js';

export function isAdmin(user: UserRow | null | undefined): boolean {
  return !!user && !!user.admin && user.state === 'active';
}

/** Signed in and not external: the users who see internal projects and groups. */
export function isSignedInRegular(user: UserRow | null | undefined): boolean {
  return !!user && !user.external;
}

/**
 * GET /users: anyone signed in may list users; anonymous callers only when asking for one
 * `username` (GitLab keeps the full list from the anonymous).
 */
export function canListUsers(viewer: UserRow | null, username: string | undefined): boolean {
  return !!viewer || (username !== undefined && username.trim() !== '');
}
