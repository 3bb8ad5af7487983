// GitLab 10.8's Entities::NotificationSetting (`level`, and `events` only at the custom level)
// and GlobalNotificationSetting (plus the user's `notification_email`, their email by default).
// An event never set shows null, except failed_pipeline, which is on unless turned off (10.8's
// NotificationSetting#failed_pipeline).
import { levelName, NOTIFICATION_EVENTS, type NotificationSettingRow } from '../store/notification_levels.js';

export function notificationSettingEntity(row: NotificationSettingRow): Record<string, unknown> {
  const level = levelName(row.level);
  const out: Record<string, unknown> = { level };
  if (level === 'custom') {
    const events: Record<string, boolean | null> = {};
    for (const e of NOTIFICATION_EVENTS) {
      const v = row[e];
      events[e] = e === 'failed_pipeline' ? v === null || v === undefined || !!v : v === null || v === undefined ? null : !!v;
    }
    out.events = events;
  }
  return out;
}

export function globalNotificationSettingEntity(row: NotificationSettingRow, user: { email: string; notification_email?: string | null }): Record<string, unknown> {
  return { ...notificationSettingEntity(row), notification_email: user.notification_email || user.email };
}
