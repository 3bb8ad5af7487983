// Adding members to projects and groups.
import type { Conn } from '../store/db.js';
import type { MemberRow } from '../store/rows.js';
import { now } from '../store/time.js';

export interface NewMember {
  sourceType: 'project' | 'group';
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt?: string | null;
  createdById?: number | null;
}

export async function insertMember(db: Conn, m: NewMember): Promise<MemberRow> {
  const stamp = now();
  await db('members').insert({
    source_type: m.sourceType,
    source_id: m.sourceId,
    user_id: m.userId,
    access_level: m.accessLevel,
    expires_at: m.expiresAt ?? null,
    requested_at: null,
    created_by_id: m.createdById ?? null,
    created_at: stamp,
    updated_at: stamp,
  });
  return db('members').where({ source_type: m.sourceType, source_id: m.sourceId, user_id: m.userId }).first();
}
