// A user's notification setting for a source (GitLab 10.8's User#global_notification_setting and
// #notification_settings_for): the stored row, or the default one 10.8 would make on first read,
// `participating` globally and `global` for a project or a group (not stored until changed).
import type { Conn } from '../store/db.js';
import { NOTIFICATION_LEVELS, type NotificationSettingRow, type NotificationSource } from '../store/notification_levels.js';

export async function notificationSettingOf(db: Conn, userId: number, source: NotificationSource): Promise<NotificationSettingRow> {
  const row: NotificationSettingRow | undefined = await db('notification_settings').where({ user_id: userId, source_type: source.type, source_id: source.id }).first();
  if (row) return row;
  return { user_id: userId, source_type: source.type, source_id: source.id, level: source.type === 'Global' ? NOTIFICATION_LEVELS.participating : NOTIFICATION_LEVELS.global };
}
