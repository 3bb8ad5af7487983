// The application settings of one request, read once (services/application_settings.ts
// settingsOf: one small epoch query, the values from the process's cache) and kept on the
// request for everything after: the rate limits, the git transport, the presenters.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import { settingsOf } from '../services/application_settings.js';

export async function requestSettings(ctx: Koa.Context, deps: Deps): Promise<ApplicationSettings> {
  let settings = ctx.state.settings as ApplicationSettings | undefined;
  if (!settings) {
    settings = await settingsOf(deps);
    ctx.state.settings = settings;
    // The presenters show avatars per the setting they were last given (entities are pure).
    deps.urls.gravatarEnabled = settings.gravatar_enabled;
  }
  return settings;
}
