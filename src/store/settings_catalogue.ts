// Every application setting GitLab 10.8 exposes (ApplicationSettingsHelper#visible_attributes,
// in its order, which is the order of the API's JSON), with its kind and the value a fresh
// install has (ApplicationSetting.defaults over the column defaults of db/schema.rb). The
// store keeps only what an administrator changed; everything else reads as these defaults.
// Visibility settings are kept as GitLab's numbers (0, 10, 20) and shown as names.

type SettingKind = 'boolean' | 'integer' | 'decimal' | 'string' | 'strings' | 'visibility' | 'levels';

export interface FieldSpec<T> {
  kind: SettingKind;
  default: T;
  /** Whether null may be stored (string columns); a null elsewhere is "can't be blank". */
  nullable: boolean;
}

const bool = (d: boolean): FieldSpec<boolean> => ({ kind: 'boolean', default: d, nullable: false });
const int = (d: number): FieldSpec<number> => ({ kind: 'integer', default: d, nullable: false });
const optInt = (d: number | null): FieldSpec<number | null> => ({ kind: 'integer', default: d, nullable: true });
const dec = (d: number | null): FieldSpec<number | null> => ({ kind: 'decimal', default: d, nullable: d === null });
const str = (d: string | null = null): FieldSpec<string | null> => ({ kind: 'string', default: d, nullable: true });
const list = (d: string[]): FieldSpec<string[]> => ({ kind: 'strings', default: d, nullable: false });
const vis = (d: number): FieldSpec<number> => ({ kind: 'visibility', default: d, nullable: false });
const levels = (d: number[]): FieldSpec<number[]> => ({ kind: 'levels', default: d, nullable: false });

/** Gitlab::ImportSources.values: what a fresh install enables. */
const IMPORT_SOURCES = ['github', 'bitbucket', 'gitlab', 'google_code', 'fogbugz', 'git', 'gitlab_project', 'gitea'];

/** The stored settings, in the API's order. Derived fields (the `_raw` lists, the legacy names) are not here. */
export const FIELDS = {
  admin_notification_email: str(),
  after_sign_out_path: str(),
  after_sign_up_text: str(),
  akismet_api_key: str(),
  akismet_enabled: bool(false),
  authorized_keys_enabled: bool(true),
  auto_devops_enabled: bool(false),
  auto_devops_domain: str(),
  circuitbreaker_access_retries: int(3),
  circuitbreaker_check_interval: int(1),
  circuitbreaker_failure_count_threshold: int(3),
  circuitbreaker_failure_reset_time: int(1800),
  circuitbreaker_storage_timeout: int(15),
  clientside_sentry_dsn: str(),
  clientside_sentry_enabled: bool(false),
  container_registry_token_expire_delay: int(5),
  default_artifacts_expire_in: str('30 days'),
  default_branch_protection: int(2),
  default_group_visibility: vis(0),
  default_project_visibility: vis(0),
  default_projects_limit: int(100000),
  default_snippet_visibility: vis(0),
  disabled_oauth_sign_in_sources: list([]),
  domain_blacklist_enabled: bool(false),
  domain_blacklist: list([]),
  domain_whitelist: list([]),
  dsa_key_restriction: int(0),
  ecdsa_key_restriction: int(0),
  ed25519_key_restriction: int(0),
  email_author_in_body: bool(false),
  enabled_git_access_protocol: str(),
  gitaly_timeout_default: int(55),
  gitaly_timeout_medium: int(30),
  gitaly_timeout_fast: int(10),
  gravatar_enabled: bool(true),
  hashed_storage_enabled: bool(false),
  help_page_hide_commercial_content: bool(false),
  help_page_support_url: str(),
  help_page_text: str(),
  home_page_url: str(),
  housekeeping_bitmaps_enabled: bool(true),
  housekeeping_enabled: bool(true),
  housekeeping_full_repack_period: int(50),
  housekeeping_gc_period: int(200),
  housekeeping_incremental_repack_period: int(10),
  html_emails_enabled: bool(true),
  import_sources: list(IMPORT_SOURCES),
  koding_enabled: bool(false),
  koding_url: str(),
  max_artifacts_size: int(100),
  max_attachment_size: int(10),
  max_pages_size: int(100),
  metrics_enabled: bool(false),
  metrics_host: str('localhost'),
  metrics_method_call_threshold: int(10),
  metrics_packet_size: int(1),
  metrics_pool_size: int(16),
  metrics_port: int(8089),
  metrics_sample_interval: int(15),
  metrics_timeout: int(10),
  pages_domain_verification_enabled: bool(true),
  password_authentication_enabled_for_web: bool(true),
  password_authentication_enabled_for_git: bool(true),
  performance_bar_allowed_group_id: optInt(null),
  plantuml_enabled: bool(false),
  plantuml_url: str(),
  polling_interval_multiplier: dec(1),
  project_export_enabled: bool(true),
  prometheus_metrics_enabled: bool(true),
  recaptcha_enabled: bool(false),
  recaptcha_private_key: str(),
  recaptcha_site_key: str(),
  repository_checks_enabled: bool(true),
  repository_storages: list(['default']),
  require_two_factor_authentication: bool(false),
  restricted_visibility_levels: levels([]),
  rsa_key_restriction: int(0),
  send_user_confirmation_email: bool(false),
  sentry_dsn: str(),
  sentry_enabled: bool(false),
  session_expire_delay: int(10080),
  shared_runners_enabled: bool(true),
  shared_runners_text: str(),
  sidekiq_throttling_enabled: bool(false),
  sidekiq_throttling_factor: dec(null),
  sidekiq_throttling_queues: list([]),
  sign_in_text: str(),
  signup_enabled: bool(true),
  terminal_max_session_time: int(0),
  throttle_unauthenticated_enabled: bool(false),
  throttle_unauthenticated_requests_per_period: int(3600),
  throttle_unauthenticated_period_in_seconds: int(3600),
  throttle_authenticated_web_enabled: bool(false),
  throttle_authenticated_web_requests_per_period: int(7200),
  throttle_authenticated_web_period_in_seconds: int(3600),
  throttle_authenticated_api_enabled: bool(false),
  throttle_authenticated_api_requests_per_period: int(7200),
  throttle_authenticated_api_period_in_seconds: int(3600),
  two_factor_grace_period: int(48),
  unique_ips_limit_enabled: bool(false),
  unique_ips_limit_per_user: int(10),
  unique_ips_limit_time_window: int(3600),
  usage_ping_enabled: bool(true),
  user_default_external: bool(false),
  user_oauth_applications: bool(true),
  version_check_enabled: bool(true),
  allow_local_requests_from_hooks_and_services: bool(false),
  enforce_terms: bool(false),
  terms: str(),
  mirror_available: bool(true),
};

export type SettingName = keyof typeof FIELDS;

/** The typed values of every setting (what settingsOf answers). */
export type SettingValues = { -readonly [K in SettingName]: (typeof FIELDS)[K] extends FieldSpec<infer T> ? T : never };

export const SETTING_NAMES = Object.keys(FIELDS) as SettingName[];

export function fieldOf(name: string): FieldSpec<unknown> | undefined {
  return Object.prototype.hasOwnProperty.call(FIELDS, name) ? (FIELDS as Record<string, FieldSpec<unknown>>)[name] : undefined;
}

/** A fresh install's settings. */
export function defaultValues(): SettingValues {
  const out: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const d = FIELDS[name].default;
    out[name] = Array.isArray(d) ? [...d] : d;
  }
  return out as SettingValues;
}

/**
 * ApplicationSettingsHelper#visible_attributes: what PUT accepts and at_least_one_of names.
 * The domain lists appear under their `_raw` (newline-joined text) names, as GitLab lists them.
 */
export const VISIBLE_ATTRIBUTES: readonly string[] = SETTING_NAMES.flatMap((n) => {
  if (n === 'domain_blacklist') return ['domain_blacklist_raw'];
  if (n === 'domain_whitelist') return ['domain_whitelist_raw'];
  if (n === 'performance_bar_allowed_group_id') return [n, 'performance_bar_enabled'];
  return [n];
});

/** The settings row as every feature reads it (services/settings/application_settings.ts settingsOf). */
export interface ApplicationSettings extends SettingValues {
  id: number;
  created_at: string;
  updated_at: string;
}
