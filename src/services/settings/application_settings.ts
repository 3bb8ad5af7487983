// The instance's application settings (GitLab 10.8's ApplicationSetting.current and
// ApplicationSettings::UpdateService): one cached accessor every feature reads them through,
// and the update that changes them.
//
// settingsOf(deps) answers the settings from a per-process cache while the `settings` epoch
// (store/cache_epochs.ts) has not moved; an update bumps the epoch in its own transaction, so
// every worker process reads the new values on its next request, whichever process wrote them.
import type { Knex } from 'knex';
import type { Conn, Db } from '../../store/db.js';
import { bumpEpoch, EpochCache, readEpochs } from '../../store/cache_epochs.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import { PRIVATE, INTERNAL, PUBLIC } from '../../store/levels.js';
import { defaultValues, fieldOf, SETTING_NAMES, type ApplicationSettings, type SettingValues } from '../../store/settings_catalogue.js';
import { settingErrors, type Errors } from './validation.js';

export type { ApplicationSettings };

interface SettingsRow {
  id: number;
  changed: string;
  created_at: string;
  updated_at: string;
}

/** One cache per store (tests run several servers in one process). */
const caches = new WeakMap<object, EpochCache<number, ApplicationSettings>>();

function cacheFor(db: Conn): EpochCache<number, ApplicationSettings> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new EpochCache<number, ApplicationSettings>('settings', 1)));
  return cache;
}

function fromRow(row: SettingsRow | undefined): ApplicationSettings {
  const values = defaultValues() as unknown as Record<string, unknown>;
  let changed: Record<string, unknown> = {};
  try {
    changed = row ? JSON.parse(row.changed) : {};
  } catch {
    changed = {};
  }
  for (const [name, value] of Object.entries(changed)) if (fieldOf(name)) values[name] = value;
  const stamp = row?.created_at ?? new Date(0).toISOString();
  return { ...(values as unknown as SettingValues), id: 1, created_at: stamp, updated_at: row?.updated_at ?? stamp };
}

async function loadRow(db: Conn, forUpdate = false): Promise<SettingsRow | undefined> {
  const q = db('application_settings').where({ id: 1 }).first() as Knex.QueryBuilder;
  if (forUpdate && db.client.config.client === 'pg') q.forUpdate();
  return q;
}

/**
 * The current settings. `epochs` are the request's epochs when the caller has read them
 * already (one read per request); otherwise they are read here (one small query).
 */
export async function settingsOf(deps: { db: Conn }, epochs?: Map<string, number>): Promise<ApplicationSettings> {
  const current = epochs ?? (await readEpochs(deps.db));
  return cacheFor(deps.db).get(1, current, async () => fromRow(await loadRow(deps.db)));
}

const LEVEL_NAMES: Record<string, number> = { private: PRIVATE, internal: INTERNAL, public: PUBLIC };

/** Gitlab::VisibilityLevel.level_value: a name or a level's number. */
function levelValue(value: unknown): number | undefined {
  const s = String(value).trim();
  if (s in LEVEL_NAMES) return LEVEL_NAMES[s];
  const n = Number(s);
  return s !== '' && [PRIVATE, INTERNAL, PUBLIC].includes(n) ? n : undefined;
}

/** ApplicationSetting::DOMAIN_LIST_SEPARATOR: commas, semicolons and any whitespace. */
function splitDomains(value: string | string[]): string[] {
  const parts = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const part of parts) {
    let word = '';
    for (const ch of String(part)) {
      if (ch === ',' || ch === ';' || ch.trim() === '') {
        if (word) out.push(word);
        word = '';
      } else word += ch;
    }
    if (word) out.push(word);
  }
  return out;
}

/** What an update may carry: the API's attributes after the legacy names were mapped. */
export type SettingsInput = Record<string, unknown>;

/**
 * The API's values turned into stored ones (visibility names into levels, domain text into
 * lists, a group path into its id), with the errors of values that cannot be stored.
 */
async function normalise(db: Conn, input: SettingsInput): Promise<{ values: Record<string, unknown>; errors: Errors }> {
  const values: Record<string, unknown> = {};
  const errors: Errors = {};
  const add = (attr: string, message: string) => (errors[attr] ??= []).push(message);
  for (const [name, raw] of Object.entries(input)) {
    if (raw === undefined) continue;
    switch (name) {
      case 'domain_whitelist':
      case 'domain_blacklist':
        values[name] = raw === null ? [] : splitDomains(raw as string | string[]);
        continue;
      case 'domain_whitelist_raw':
      case 'domain_blacklist_raw':
        values[name.slice(0, -4)] = raw === null ? [] : splitDomains(String(raw));
        continue;
      case 'performance_bar_allowed_group_id': {
        const path = raw === null ? '' : String(raw).trim();
        const group = path ? await db('namespaces').where({ kind: 'group' }).whereRaw('lower(full_path) = ?', [path.toLowerCase()]).first('id') : undefined;
        values[name] = group ? group.id : null;
        continue;
      }
      case 'performance_bar_enabled':
        if (raw === false) values.performance_bar_allowed_group_id = null;
        continue;
      case 'terms':
        // GitLab keeps terms as versions and never records a blank one.
        if (typeof raw === 'string' && raw.trim() !== '') values.terms = raw.trim();
        continue;
      case 'enabled_git_access_protocol':
        values[name] = raw === null || raw === '' || raw === 'nil' ? null : raw;
        continue;
    }
    const field = fieldOf(name);
    if (!field) continue;
    if (raw === null && !field.nullable) {
      add(name, "can't be blank");
      continue;
    }
    if (field.kind === 'visibility') values[name] = levelValue(raw) ?? PRIVATE;
    else if (field.kind === 'levels') {
      const levels: number[] = [];
      for (const item of raw as unknown[]) {
        const level = levelValue(item);
        if (level === undefined) add(name, `'${String(item)}' is not a valid visibility level`);
        else if (!levels.includes(level)) levels.push(level);
      }
      values[name] = levels;
    } else values[name] = raw;
  }
  return { values, errors };
}

function merge(a: Errors, b: Errors): Errors {
  const out: Errors = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = [...(out[k] ?? []), ...v];
  return out;
}

/**
 * Applies a change: every value is validated on the resulting settings as a whole (400 with
 * GitLab's messages, nothing stored), then written with the epoch bump in one transaction.
 */
export async function updateSettings(deps: { db: Db }, input: SettingsInput): Promise<ApplicationSettings> {
  return deps.db.transaction(async (tx) => {
    const row = await loadRow(tx, true);
    const current = fromRow(row);
    const { values, errors } = await normalise(tx, input);
    const next = { ...current, ...values } as ApplicationSettings;
    const all = merge(errors, settingErrors(next));
    if (Object.keys(all).length) throw new Invalid(all);
    const changed: Record<string, unknown> = row ? JSON.parse(row.changed) : {};
    for (const name of SETTING_NAMES) if (name in values) changed[name] = values[name];
    const stamp = now();
    if (row)
      await tx('application_settings')
        .where({ id: 1 })
        .update({ changed: JSON.stringify(changed), updated_at: stamp });
    else await tx('application_settings').insert({ id: 1, changed: JSON.stringify(changed), created_at: stamp, updated_at: stamp });
    await bumpEpoch(tx, 'settings');
    return { ...next, updated_at: stamp, created_at: row?.created_at ?? stamp };
  });
}
