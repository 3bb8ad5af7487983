// Facts about the current user that every policy asks.
import type { UserRow } from '../store/rows.js';

export function isAdmin(user: UserRow | null | undefined): boolean {
  return !!user && !!user.admin && user.state === 'active';
}

/** Signed in and not external: the users who see internal projects and groups. */
export function isSignedInRegular(user: UserRow | null | undefined): boolean {
  return !!user && !user.external;
}

/** GitLab 10.8's UserPolicy abilities on another user. */
export type UserAbility = 'read_user' | 'update_user' | 'destroy_user';

/**
 * The user rule (policy-internal: callers outside policy/ use `can()` of can.ts): anyone may
 * read a user (Wharf has no restricted public visibility); a user edits and deletes themself,
 * an admin anyone.
 */
export function userCan(viewer: UserRow | null, target: UserRow, ability: UserAbility): boolean {
  if (ability === 'read_user') return true;
  if (!viewer || viewer.state === 'blocked') return false;
  return viewer.id === target.id || isAdmin(viewer);
}
