// The model validations of GitLab 10.8's ApplicationSetting, run on the whole record after a
// change is applied (as ActiveRecord does), in the model's order, with its messages:
// `{"message":{"housekeeping_gc_period":["must be greater than or equal to 50"]}}`.
// Beyond GitLab: the throttle periods and limits must be positive (GitLab 10.8 accepted 0 and
// then failed every request dividing by it).
import type { SettingValues } from '../../store/settings_catalogue.js';

export type Errors = Record<string, string[]>;

const BLANK = "can't be blank";
/** Gitlab.config.repositories.storages: Wharf has one storage, `default`. */
const STORAGES = ['default'];
/** Gitlab::SSHPublicKey's supported sizes per key type. */
export const KEY_SIZES: Record<string, number[]> = {
  rsa: [1024, 2048, 3072, 4096],
  dsa: [1024, 2048, 3072],
  ecdsa: [256, 384, 521],
  ed25519: [256],
};
const FORBIDDEN_KEY = -1;

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** Rails' URL check for http(s) (UrlValidator). */
function validUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Devise.email_regexp (`\A[^@\s]+@[^@\s]+\z`), without a regex. */
function validEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@') || at === value.length - 1) return false;
  return !/\s/.test(value);
}

const DURATION_WORDS = new Set(
  ('seconds second secs sec s minutes minute mins min m hours hour hrs hr h days day dy d ' + 'weeks week wks wk w months mo mos month years year yrs yr y and').split(' '),
);

/** ChronicDuration.parse with raise_exceptions (GitLab's setting): every word a number or a unit. */
function validDuration(value: string): boolean {
  const isNumeric = (ch: string) => (ch >= '0' && ch <= '9') || ch === '.' || ch === ':';
  const words: string[] = [];
  let word = '';
  let numeric = false;
  for (const ch of value.toLowerCase()) {
    const letter = ch >= 'a' && ch <= 'z';
    if (!letter && !isNumeric(ch)) {
      if (word) words.push(word);
      word = '';
      continue;
    }
    if (word && numeric !== isNumeric(ch)) {
      words.push(word);
      word = '';
    }
    numeric = isNumeric(ch);
    word += ch;
  }
  if (word) words.push(word);
  if (words.length === 0) return false;
  return words.every((w) => (isNumeric(w[0]) ? /[0-9]/.test(w) : DURATION_WORDS.has(w)));
}

class Collector {
  readonly errors: Errors = {};
  add(attr: string, message: string): void {
    (this.errors[attr] ??= []).push(message);
  }
  presence(attr: string, value: unknown, message = BLANK): void {
    if (blank(value)) this.add(attr, message);
  }
  /** Rails' numericality: `is not a number`, then the bounds in GitLab's words. */
  number(attr: string, value: unknown, rule: { gt?: number; gte?: number; lt?: number; lte?: number; integer?: boolean }): void {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(attr, 'is not a number');
      return;
    }
    if (rule.integer && !Number.isInteger(value)) this.add(attr, 'must be an integer');
    if (rule.gt !== undefined && !(value > rule.gt)) this.add(attr, `must be greater than ${rule.gt}`);
    if (rule.gte !== undefined && !(value >= rule.gte)) this.add(attr, `must be greater than or equal to ${rule.gte}`);
    if (rule.lt !== undefined && !(value < rule.lt)) this.add(attr, `must be less than ${rule.lt}`);
    if (rule.lte !== undefined && !(value <= rule.lte)) this.add(attr, `must be less than or equal to ${rule.lte}`);
  }
  url(attr: string, value: string | null): void {
    if (!blank(value) && !validUrl(value!)) this.add(attr, 'must be a valid URL');
  }
}

function sentence(sizes: number[]): string {
  if (sizes.length === 1) return String(sizes[0]);
  if (sizes.length === 2) return `${sizes[0]} or ${sizes[1]}`;
  return `${sizes.slice(0, -1).join(', ')}, or ${sizes[sizes.length - 1]}`;
}

/** Every failed validation of `s`, keyed by attribute in GitLab's order; empty when valid. */
export function settingErrors(s: SettingValues): Errors {
  const c = new Collector();
  c.number('session_expire_delay', s.session_expire_delay, { integer: true, gte: 0 });
  c.url('home_page_url', s.home_page_url);
  c.url('help_page_support_url', s.help_page_support_url);
  c.url('after_sign_out_path', s.after_sign_out_path);
  if (!blank(s.admin_notification_email) && !validEmail(s.admin_notification_email!)) c.add('admin_notification_email', 'is invalid');
  c.number('two_factor_grace_period', s.two_factor_grace_period, { gte: 0 });
  if (s.recaptcha_enabled) {
    c.presence('recaptcha_site_key', s.recaptcha_site_key);
    c.presence('recaptcha_private_key', s.recaptcha_private_key);
  }
  if (s.sentry_enabled) c.presence('sentry_dsn', s.sentry_dsn);
  if (s.clientside_sentry_enabled) c.presence('clientside_sentry_dsn', s.clientside_sentry_dsn);
  if (s.akismet_enabled) c.presence('akismet_api_key', s.akismet_api_key);
  if (s.unique_ips_limit_enabled) {
    c.number('unique_ips_limit_per_user', s.unique_ips_limit_per_user, { gte: 1 });
    c.number('unique_ips_limit_time_window', s.unique_ips_limit_time_window, { gte: 0 });
  }
  if (s.koding_enabled) c.presence('koding_url', s.koding_url);
  if (s.plantuml_enabled) c.presence('plantuml_url', s.plantuml_url);
  c.number('max_attachment_size', s.max_attachment_size, { integer: true, gt: 0 });
  c.number('max_artifacts_size', s.max_artifacts_size, { integer: true, gt: 0 });
  c.presence('default_artifacts_expire_in', s.default_artifacts_expire_in);
  if (!blank(s.default_artifacts_expire_in) && !validDuration(s.default_artifacts_expire_in!)) {
    c.add('default_artifacts_expire_in', 'is not a correct duration');
  }
  c.number('container_registry_token_expire_delay', s.container_registry_token_expire_delay, { integer: true, gt: 0 });
  c.presence('repository_storages', s.repository_storages);
  const unknownStorages = s.repository_storages.filter((name) => !STORAGES.includes(name));
  if (unknownStorages.length) c.add('repository_storages', `can't include: ${unknownStorages.join(', ')}`);
  if (s.enabled_git_access_protocol !== null && !['ssh', 'http'].includes(s.enabled_git_access_protocol)) {
    c.add('enabled_git_access_protocol', 'is not included in the list');
  }
  if (s.domain_blacklist_enabled) c.presence('domain_blacklist', s.domain_blacklist, 'Domain blacklist cannot be empty if Blacklist is enabled.');
  if (s.sidekiq_throttling_enabled) {
    if (s.sidekiq_throttling_factor === null) {
      c.add('sidekiq_throttling_factor', 'is not a number');
      c.add('sidekiq_throttling_factor', 'Throttling factor cannot be empty if Sidekiq Throttling is enabled.');
    } else c.number('sidekiq_throttling_factor', s.sidekiq_throttling_factor, { gt: 0, lt: 1 });
    c.presence('sidekiq_throttling_queues', s.sidekiq_throttling_queues, 'Queues to throttle cannot be empty if Sidekiq Throttling is enabled.');
  }
  c.number('housekeeping_incremental_repack_period', s.housekeeping_incremental_repack_period, { integer: true, gt: 0 });
  c.number('housekeeping_full_repack_period', s.housekeeping_full_repack_period, { integer: true, gte: s.housekeeping_incremental_repack_period });
  c.number('housekeeping_gc_period', s.housekeeping_gc_period, { integer: true, gte: s.housekeeping_full_repack_period });
  c.number('terminal_max_session_time', s.terminal_max_session_time, { integer: true, gte: 0 });
  c.number('polling_interval_multiplier', s.polling_interval_multiplier, { gte: 0 });
  for (const attr of ['circuitbreaker_failure_count_threshold', 'circuitbreaker_failure_reset_time', 'circuitbreaker_storage_timeout', 'circuitbreaker_check_interval'] as const) {
    c.number(attr, s[attr], { integer: true, gte: 0 });
  }
  c.number('circuitbreaker_access_retries', s.circuitbreaker_access_retries, { integer: true, gte: 1 });
  c.number('gitaly_timeout_default', s.gitaly_timeout_default, { integer: true, gte: 0 });
  c.number('gitaly_timeout_medium', s.gitaly_timeout_medium, { integer: true, gte: 0 });
  c.number('gitaly_timeout_medium', s.gitaly_timeout_medium, { lte: s.gitaly_timeout_default });
  c.number('gitaly_timeout_medium', s.gitaly_timeout_medium, { gte: s.gitaly_timeout_fast });
  c.number('gitaly_timeout_fast', s.gitaly_timeout_fast, { integer: true, gte: 0 });
  c.number('gitaly_timeout_fast', s.gitaly_timeout_fast, { lte: s.gitaly_timeout_default });
  for (const type of Object.keys(KEY_SIZES)) {
    const value = s[`${type}_key_restriction` as 'rsa_key_restriction'];
    if (![0, ...KEY_SIZES[type], FORBIDDEN_KEY].includes(value)) {
      c.add(`${type}_key_restriction`, `must be forbidden, allowed, or one of these sizes: ${sentence(KEY_SIZES[type])}`);
    }
  }
  if (Object.keys(KEY_SIZES).every((type) => s[`${type}_key_restriction` as 'rsa_key_restriction'] === FORBIDDEN_KEY)) c.add('allowed_key_types', BLANK);
  for (const source of s.disabled_oauth_sign_in_sources) c.add('disabled_oauth_sign_in_sources', `'${source}' is not an OAuth sign-in source`);
  if (s.enforce_terms && blank(s.terms)) c.add('terms', 'You need to set terms to be enforced');
  for (const kind of ['unauthenticated', 'authenticated_api', 'authenticated_web'] as const) {
    c.number(`throttle_${kind}_requests_per_period`, s[`throttle_${kind}_requests_per_period`], { integer: true, gt: 0 });
    c.number(`throttle_${kind}_period_in_seconds`, s[`throttle_${kind}_period_in_seconds`], { integer: true, gt: 0 });
  }
  return c.errors;
}
