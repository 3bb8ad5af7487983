// GitLab 10.8's AccessRequester entity: the requesting user's UserBasic fields and
// `requested_at`. Pure: the users come loaded (finders/access_requests.ts, one query a page).
import type { Urls } from '../http/urls.js';
import type { MemberRow, UserRow } from '../store/rows.js';
import { userBasic } from './user.js';

/** The requests whose user exists, in order. */
export function presentAccessRequesters(requests: MemberRow[], users: Map<number, UserRow>, urls: Urls) {
  return requests.filter((m) => users.has(m.user_id)).map((m) => ({ ...userBasic(users.get(m.user_id)!, urls), requested_at: m.requested_at }));
}
