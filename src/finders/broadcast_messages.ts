// Broadcast messages as the admins' API reads them: every message, newest first (GitLab's
// `order_id_desc`), and one by id.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { BroadcastMessageRow } from '../store/broadcast_message_rows.js';
import { storableId } from '../store/stored_values.js';

export function broadcastMessagesQuery(db: Conn): Knex.QueryBuilder {
  return db('broadcast_messages').orderBy('id', 'desc');
}

export async function findBroadcastMessage(db: Conn, id: number): Promise<BroadcastMessageRow | undefined> {
  const n = storableId(id);
  if (n === null) return undefined;
  return db('broadcast_messages').where({ id: n }).first();
}
