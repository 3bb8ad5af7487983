// Member: the user's UserBasic fields with the membership's access level and expiry date.
import type { Urls } from '../http/urls.js';
import type { MemberRow, UserRow } from '../store/rows.js';
import { userBasic } from './user.js';

export function memberEntity(urls: Urls, member: MemberRow, user: UserRow) {
  return {
    ...userBasic(user, urls),
    access_level: member.access_level,
    expires_at: member.expires_at,
  };
}
