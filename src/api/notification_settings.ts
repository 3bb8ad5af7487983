// GitLab 10.8's lib/api/notification_settings.rb, signed-in users only: `GET/PUT
// /notification_settings` (the global level, `participating` by default, with
// `notification_email`) and `GET/PUT /projects|groups/:id/notification_settings` (the level for a
// project or group the user can see, `global` by default: 404 for one they cannot). `level` is
// one of 10.8's names (else 400 "'<level>' is not a valid level"); the custom events are booleans,
// shown only at the `custom` level.
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { ApiError } from '../http/errors.js';
import { p, type Param } from '../http/params.js';
import { findUserById } from '../finders/users.js';
import { notificationSettingOf } from '../finders/notification_settings.js';
import { changeNotificationSetting } from '../services/notification_settings/settings.js';
import { globalNotificationSettingEntity, notificationSettingEntity } from '../entities/notification_setting.js';
import { NOTIFICATION_EVENTS, NOTIFICATION_LEVELS, type NotificationEvent, type NotificationLevel, type NotificationSource } from '../store/notification_levels.js';
import { route, type Route } from './core/route.js';

const EVENT_PARAMS = Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, p.boolean()])) as Record<NotificationEvent, Param<boolean, false>>;
const SOURCE_PARAMS = { level: p.string(), ...EVENT_PARAMS };

function levelOf(raw: string | null | undefined): NotificationLevel | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Object.hasOwn(NOTIFICATION_LEVELS, raw)) throw new ApiError(400, { message: `'${raw}' is not a valid level` });
  return raw as NotificationLevel;
}

function eventsOf(params: Record<string, unknown>): Partial<Record<NotificationEvent, boolean>> {
  const out: Partial<Record<NotificationEvent, boolean>> = {};
  for (const e of NOTIFICATION_EVENTS) if (typeof params[e] === 'boolean') out[e] = params[e] as boolean;
  return out;
}

async function sourceSetting(deps: Deps, user: UserRow, source: NotificationSource) {
  return notificationSettingEntity(await notificationSettingOf(deps.db, user.id, source));
}

/** PUT on a project's or group's setting: the change, then the setting as it now is. */
async function changeSourceSetting(deps: Deps, user: UserRow, source: NotificationSource, params: Record<string, unknown>) {
  await changeNotificationSetting(deps.db, user, source, { level: levelOf(params.level as string | null | undefined), events: eventsOf(params) });
  return sourceSetting(deps, user, source);
}

async function globalSetting(deps: Deps, user: UserRow) {
  const fresh = ((await findUserById(deps.db, user.id)) ?? user) as UserRow & { notification_email?: string | null };
  return globalNotificationSettingEntity(await notificationSettingOf(deps.db, user.id, { type: 'Global', id: 0 }), fresh);
}

const GLOBAL: NotificationSource = { type: 'Global', id: 0 };

export const notificationSettingRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/notification_settings',
    auth: 'user',
    summary: 'Get global notification level settings and email, defaults to Participate',
    handler: ({ deps, user }) => globalSetting(deps, user),
  }),
  route({
    method: 'PUT',
    path: '/notification_settings',
    auth: 'user',
    params: { ...SOURCE_PARAMS, notification_email: p.string() },
    summary: 'Update global notification level settings and email',
    handler: async ({ deps, user, params }) => {
      const change = { level: levelOf(params.level), events: eventsOf(params), notificationEmail: params.notification_email ?? undefined };
      await changeNotificationSetting(deps.db, user, GLOBAL, change);
      return globalSetting(deps, user);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/notification_settings',
    auth: 'user',
    load: 'project',
    summary: 'Get project level notification level settings, defaults to Global',
    handler: ({ deps, user, project }) => sourceSetting(deps, user, { type: 'Project', id: project.id }),
  }),
  route({
    method: 'PUT',
    path: '/projects/:id/notification_settings',
    auth: 'user',
    load: 'project',
    params: SOURCE_PARAMS,
    summary: 'Update project level notification level settings',
    handler: ({ deps, user, project, params }) => changeSourceSetting(deps, user, { type: 'Project', id: project.id }, params),
  }),
  route({
    method: 'GET',
    path: '/groups/:id/notification_settings',
    auth: 'user',
    load: 'group',
    summary: 'Get group level notification level settings, defaults to Global',
    handler: ({ deps, user, group }) => sourceSetting(deps, user, { type: 'Namespace', id: group.id }),
  }),
  route({
    method: 'PUT',
    path: '/groups/:id/notification_settings',
    auth: 'user',
    load: 'group',
    params: SOURCE_PARAMS,
    summary: 'Update group level notification level settings',
    handler: ({ deps, user, group, params }) => changeSourceSetting(deps, user, { type: 'Namespace', id: group.id }, params),
  }),
];
