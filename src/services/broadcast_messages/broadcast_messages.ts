// Creating, changing and deleting broadcast messages (GitLab 10.8's BroadcastMessage through
// the admins' API). A new message starts now and ends an hour later unless told otherwise
// (the API's defaults) and is drawn in '#E75E40' on '#FFFFFF' unless given colours (the
// model's). A change is validated as the whole message it makes; a refused create or change
// stores nothing. No announcement: nothing in 10.8 reacts to a broadcast message (no hook,
// event or to-do).
import type { Conn } from '../../store/db.js';
import type { BroadcastMessageRow } from '../../store/broadcast_message_rows.js';
import { insertReturningId } from '../../store/ids.js';
import { now } from '../../store/time.js';
import { validateBroadcastMessage, type BroadcastMessageFields } from './validation.js';

const HOUR_MS = 3_600_000;
const DEFAULT_COLOR = '#E75E40';
const DEFAULT_FONT = '#FFFFFF';

export interface NewBroadcastMessage {
  message: string;
  starts_at?: string;
  ends_at?: string;
  color?: string;
  font?: string;
}

export async function createBroadcastMessage(db: Conn, input: NewBroadcastMessage): Promise<BroadcastMessageRow> {
  const stamp = now();
  const fields: BroadcastMessageFields = {
    message: input.message,
    starts_at: input.starts_at ?? stamp,
    ends_at: input.ends_at ?? new Date(Date.parse(stamp) + HOUR_MS).toISOString(),
    color: input.color ?? DEFAULT_COLOR,
    font: input.font ?? DEFAULT_FONT,
  };
  validateBroadcastMessage(fields);
  const id = await insertReturningId(db, 'broadcast_messages', { ...fields, created_at: stamp, updated_at: stamp });
  return db('broadcast_messages').where({ id }).first();
}

/** The attributes a request sets (a null clears one, and the model may refuse that). */
export type BroadcastMessageChanges = Partial<BroadcastMessageFields>;

export async function updateBroadcastMessage(db: Conn, row: BroadcastMessageRow, changes: BroadcastMessageChanges): Promise<BroadcastMessageRow> {
  const { message, starts_at, ends_at, color, font } = { ...row, ...changes };
  validateBroadcastMessage({ message, starts_at, ends_at, color, font });
  await db('broadcast_messages')
    .where({ id: row.id })
    .update({ ...changes, updated_at: now() });
  return db('broadcast_messages').where({ id: row.id }).first();
}

export async function deleteBroadcastMessage(db: Conn, row: BroadcastMessageRow): Promise<void> {
  await db('broadcast_messages').where({ id: row.id }).delete();
}
