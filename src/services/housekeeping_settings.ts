// The application settings that drive housekeeping (GitLab 10.8's `housekeeping_enabled`,
// `housekeeping_bitmaps_enabled`, `housekeeping_incremental_repack_period`,
// `housekeeping_full_repack_period`, `housekeeping_gc_period`), with GitLab's defaults: on,
// bitmaps on, every 10 pushes an incremental repack, every 50 a full repack, every 200 a gc.
//
// The application settings are stored and cached by src/services/application_settings.ts;
// until that file is merged, this function answers GitLab's defaults. Once it is, this is the
// one place to switch: read the five fields through its cached accessor here, and every
// caller (services/housekeeping.ts) follows.
import type { Conn } from '../store/db.js';

export interface HousekeepingSettings {
  enabled: boolean;
  bitmapsEnabled: boolean;
  incrementalRepackPeriod: number;
  fullRepackPeriod: number;
  gcPeriod: number;
}

export const HOUSEKEEPING_DEFAULTS: Readonly<HousekeepingSettings> = {
  enabled: true,
  bitmapsEnabled: true,
  incrementalRepackPeriod: 10,
  fullRepackPeriod: 50,
  gcPeriod: 200,
};

export async function housekeepingSettings(_db: Conn): Promise<HousekeepingSettings> {
  return { ...HOUSEKEEPING_DEFAULTS };
}
