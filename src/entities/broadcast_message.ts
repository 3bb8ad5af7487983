// GitLab 10.8's Entities::BroadcastMessage (the admins' API): `id, message, starts_at,
// ends_at, color, font` and `active` — started (now at or after starts_at) and not ended
// (ends_at not before now), read at `at`, the moment of the request.
import type { BroadcastMessageRow } from '../store/broadcast_message_rows.js';

export function broadcastMessageEntity(m: BroadcastMessageRow, at: Date) {
  const time = at.getTime();
  return {
    id: m.id,
    message: m.message,
    starts_at: m.starts_at,
    ends_at: m.ends_at,
    color: m.color,
    font: m.font,
    active: time >= Date.parse(m.starts_at) && !(Date.parse(m.ends_at) < time),
  };
}
