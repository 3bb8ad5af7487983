// The application settings of one request, read once and kept on the request for everything
// after it: the rate limits, the git transport, the presenters. The cache epochs are read
// here, one small query (store/cache_epochs.ts), and kept as `ctx.state.epochs` so that any
// other per-process cache can check itself against the same reading.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import { readEpochs } from '../store/cache_epochs.js';
import { settingsOf } from '../services/settings/application_settings.js';

/**
 * The request's reading of the cache epochs, read at most once per request (callers that ask
 * at the same time share the one query). Read before anything is loaded, so that a value
 * loaded after it is never stamped with a newer epoch than the one it was read under.
 */
export function requestEpochs(ctx: Koa.Context, deps: Deps): Promise<Map<string, number>> {
  const state = ctx.state as { epochs?: Promise<Map<string, number>> };
  return (state.epochs ??= readEpochs(deps.db));
}

export async function requestSettings(ctx: Koa.Context, deps: Deps): Promise<ApplicationSettings> {
  let settings = ctx.state.settings as ApplicationSettings | undefined;
  if (!settings) {
    settings = await settingsOf(deps, await requestEpochs(ctx, deps));
    ctx.state.settings = settings;
    // The presenters show avatars per the setting they were last given (entities are pure).
    deps.urls.gravatarEnabled = settings.gravatar_enabled;
  }
  return settings;
}
