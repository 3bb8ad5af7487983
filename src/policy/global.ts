// GitLab 10.8's GlobalPolicy: the abilities that belong to no project, group or user — asked as
// `can(user, GLOBAL, ability)` (policy/can.ts).
// - read_users_list: everyone (Wharf has no restricted public visibility level, the only thing
//   that takes it from the anonymous in 10.8; GET /users itself still wants a username from
//   them, as 10.8's endpoint does);
// - create_group: a signed-in, unblocked user whose `can_create_group` flag is set (admins
//   included: an admin without the flag is refused too, as in GitLab);
// - read_custom_attribute, update_custom_attribute: admins;
// - read_all_pages_domains (/pages/domains): admins;
// - create_personal_snippet: a signed-in, unblocked user who is not external (snippets.ts).
import type { UserRow } from '../store/rows.js';
import { isAdmin } from './users.js';
import { canCreatePersonalSnippet } from './snippets.js';

export type GlobalAbility = 'read_users_list' | 'create_group' | 'read_custom_attribute' | 'update_custom_attribute' | 'create_personal_snippet' | 'read_all_pages_domains';

/** The global rule (policy-internal: callers outside policy/ use `can()` of can.ts). */
export function globalCan(user: UserRow | null, ability: GlobalAbility): boolean {
  switch (ability) {
    case 'read_users_list':
      return true;
    case 'create_group':
      return !!user && user.state === 'active' && !!user.can_create_group;
    case 'read_custom_attribute':
    case 'update_custom_attribute':
    case 'read_all_pages_domains': // GitLab's full_private_access (admins)
      return isAdmin(user);
    case 'create_personal_snippet':
      return canCreatePersonalSnippet(user);
  }
}
