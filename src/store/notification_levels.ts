// GitLab 10.8's NotificationSetting levels as stored (its enum's numbers) and named, and the
// custom events (NotificationSetting::EMAIL_EVENTS), in 10.8's order.
export const NOTIFICATION_LEVELS = { disabled: 0, participating: 1, watch: 2, global: 3, mention: 4, custom: 5 } as const;
export type NotificationLevel = keyof typeof NOTIFICATION_LEVELS;

export const NOTIFICATION_EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'success_pipeline',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export function levelName(stored: number): NotificationLevel {
  return (Object.entries(NOTIFICATION_LEVELS).find(([, n]) => n === stored)?.[0] ?? 'global') as NotificationLevel;
}

/** A user's setting for a source (`Global` with id 0, `Project`, `Namespace`). */
export type NotificationSource = { type: 'Global'; id: 0 } | { type: 'Project' | 'Namespace'; id: number };

export interface NotificationSettingRow extends Partial<Record<NotificationEvent, boolean | number | null>> {
  id?: number;
  user_id: number;
  source_type: string;
  source_id: number;
  level: number;
}
