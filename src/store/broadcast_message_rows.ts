// Row type of a broadcast message (migrations/20261202000053_broadcast_messages.ts): times in
// the API's ISO 8601 UTC text.

export interface BroadcastMessageRow {
  id: number;
  message: string;
  starts_at: string;
  ends_at: string;
  color: string | null;
  font: string | null;
  created_at: string;
  updated_at: string;
}
