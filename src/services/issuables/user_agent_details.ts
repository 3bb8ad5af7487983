// The user agent and IP address a spammable object was created from (GitLab 10.8's
// UserAgentDetailService and UserAgentDetail): recorded when an issue is created through the
// API, shown to admins (GET .../issues/:iid/user_agent_detail). Like GitLab's model, nothing
// is recorded without a User-Agent header; `submitted` (to the spam checker) stays false.
import type { Conn } from '../../store/db.js';
import { now } from '../../store/time.js';

export interface UserAgentDetailRow {
  id: number;
  subject_type: string;
  subject_id: number;
  user_agent: string;
  ip_address: string;
  submitted: boolean | number;
  created_at: string;
  updated_at: string;
}

/** REMOTE_ADDR as Rack shows it: an IPv4 client on a dual-stack socket without its `::ffff:`. */
function remoteAddr(ip: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
}

/** Records where `subject` was created from, inside the caller's transaction. */
export async function recordUserAgent(tx: Conn, subject: { type: 'Issue'; id: number }, userAgent: string, rawIp: string): Promise<void> {
  const ip = remoteAddr(rawIp);
  if (!userAgent.trim() || !ip) return;
  const stamp = now();
  await tx('user_agent_details')
    .insert({ subject_type: subject.type, subject_id: subject.id, user_agent: userAgent, ip_address: ip, submitted: false, created_at: stamp, updated_at: stamp })
    // A row left by a deleted project's issue of the same id is replaced.
    .onConflict(['subject_type', 'subject_id'])
    .merge();
}

export async function findUserAgentDetail(db: Conn, subject: { type: 'Issue'; id: number }): Promise<UserAgentDetailRow | undefined> {
  return db('user_agent_details').where({ subject_type: subject.type, subject_id: subject.id }).first();
}
