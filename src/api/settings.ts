// GET and PUT /application/settings (GitLab 10.8 lib/api/settings.rb), administrators only:
// the settings as Entities::ApplicationSetting shows them, and a change validated as a whole
// (400 with the model's messages, nothing stored) and seen by every worker process at once.
import { route, type Route } from './core/route.js';
import { given } from '../http/params.js';
import { settingsOf, updateSettings } from '../services/settings/application_settings.js';
import { applicationSettingEntity } from '../entities/application_setting.js';
import { settingsInput, settingsRules, settingsSchema } from './settings_params.js';

export const settingsRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/application/settings',
    auth: 'admin',
    summary: 'The application settings',
    response: { schema: 'ApplicationSetting' },
    handler: async ({ deps }) => applicationSettingEntity(await settingsOf(deps)),
  }),

  route({
    method: 'PUT',
    path: '/application/settings',
    auth: 'admin',
    params: settingsSchema,
    rules: settingsRules,
    summary: 'Change application settings',
    response: { schema: 'ApplicationSetting' },
    handler: async ({ deps, params }) => applicationSettingEntity(await updateSettings(deps, settingsInput(given(params)))),
  }),
];
