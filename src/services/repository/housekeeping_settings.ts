// The application settings that drive housekeeping (GitLab 10.8's `housekeeping_enabled`,
// `housekeeping_bitmaps_enabled`, `housekeeping_incremental_repack_period`,
// `housekeeping_full_repack_period`, `housekeeping_gc_period`; GitLab's defaults: on, bitmaps
// on, every 10 pushes an incremental repack, every 50 a full repack, every 200 a gc), read
// through the settings' cached accessor, as services/repository/housekeeping.ts wants them.
import type { Deps } from '../../deps.js';
import { settingsOf } from '../settings/application_settings.js';

export interface HousekeepingSettings {
  enabled: boolean;
  bitmapsEnabled: boolean;
  incrementalRepackPeriod: number;
  fullRepackPeriod: number;
  gcPeriod: number;
}

export async function housekeepingSettings(deps: Deps): Promise<HousekeepingSettings> {
  const s = await settingsOf(deps);
  return {
    enabled: s.housekeeping_enabled,
    bitmapsEnabled: s.housekeeping_bitmaps_enabled,
    incrementalRepackPeriod: s.housekeeping_incremental_repack_period,
    fullRepackPeriod: s.housekeeping_full_repack_period,
    gcPeriod: s.housekeeping_gc_period,
  };
}
