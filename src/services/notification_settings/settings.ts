// Changing a notification setting (GitLab 10.8's PUT …/notification_settings): the level (a
// name of NOTIFICATION_LEVELS, checked by the caller), any of the custom events, and, globally, the user's notification_email, which must be one of the
// user's own addresses (User#owns_notification_email: "is not an email you own"). The row is
// made on first change; what was not given keeps its value.
import type { Conn } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { Invalid } from '../../store/domain_errors.js';
import { now } from '../../store/time.js';
import { NOTIFICATION_EVENTS, NOTIFICATION_LEVELS, type NotificationEvent, type NotificationLevel, type NotificationSource } from '../../store/notification_levels.js';

export interface SettingChange {
  level?: NotificationLevel;
  events: Partial<Record<NotificationEvent, boolean>>;
  notificationEmail?: string;
}

async function ownsEmail(db: Conn, user: UserRow, email: string): Promise<boolean> {
  if (email.toLowerCase() === user.email.toLowerCase()) return true;
  return !!(await db('emails').where({ user_id: user.id }).whereRaw('lower(email) = ?', [email.toLowerCase()]).first());
}

export async function changeNotificationSetting(db: Conn, user: UserRow, source: NotificationSource, change: SettingChange): Promise<void> {
  if (change.notificationEmail !== undefined && change.notificationEmail !== '' && !(await ownsEmail(db, user, change.notificationEmail))) {
    throw new Invalid({ notification_email: ['is not an email you own'] });
  }
  const values: Record<string, unknown> = {};
  if (change.level !== undefined) values.level = NOTIFICATION_LEVELS[change.level];
  for (const e of NOTIFICATION_EVENTS) if (change.events[e] !== undefined) values[e] = change.events[e];
  await db.transaction(async (tx) => {
    if (change.notificationEmail !== undefined)
      await tx('users')
        .where({ id: user.id })
        .update({ notification_email: change.notificationEmail || null });
    const stamp = now();
    const defaultLevel = source.type === 'Global' ? NOTIFICATION_LEVELS.participating : NOTIFICATION_LEVELS.global;
    await tx('notification_settings')
      .insert({ user_id: user.id, source_type: source.type, source_id: source.id, level: defaultLevel, ...values, created_at: stamp, updated_at: stamp })
      .onConflict(['user_id', 'source_type', 'source_id'])
      .merge({ ...values, updated_at: stamp });
  });
}
