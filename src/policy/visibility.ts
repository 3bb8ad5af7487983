// Restricted visibility levels (GitLab 10.8's Gitlab::VisibilityLevel.allowed_for? and
// closest_allowed_level): the levels an administrator listed in the
// `restricted_visibility_levels` setting may be given to projects and groups by admins only.
import type { UserRow } from '../store/rows.js';
import { INTERNAL, PRIVATE, PUBLIC } from './levels.js';
import { isAdmin } from './users.js';

/** Whether `user` may give something the visibility `level`. */
export function visibilityAllowedFor(user: UserRow | null, level: number, restricted: readonly number[]): boolean {
  return isAdmin(user) || !restricted.includes(level);
}

/** The highest level not above `target` that is not restricted (private when all are). */
export function closestAllowedLevel(target: number, restricted: readonly number[]): number {
  const allowed = [PRIVATE, INTERNAL, PUBLIC].filter((level) => level <= target && !restricted.includes(level));
  return allowed.length ? Math.max(...allowed) : PRIVATE;
}
