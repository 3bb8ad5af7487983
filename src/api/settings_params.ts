// The parameters of PUT /application/settings (GitLab 10.8 lib/api/settings.rb): the typed
// declarations first, in Grape's order, with their `given … requires` blocks ("koding_url is
// missing" when koding_enabled is sent true without it) and the three mutually exclusive names
// of password sign-in; then every other visible attribute; then at_least_one_of over the
// visible attributes. Where Grape left a visible attribute untyped, it gets its setting's type
// here, so a wrong value is a clear 400 rather than a silent cast.
//
// One lenient departure: `domain_whitelist`/`domain_blacklist` take a list or one string split
// at commas, semicolons and spaces (GitLab 10.8 declared a String for a list column and failed
// with a 500). GitLab's typo is kept: sidekiq_throttling_enabled requires
// `sidekiq_throttling_queus`, which is stored as sidekiq_throttling_queues.
import { coerceString, p, Param, type Rules, type Schema } from '../http/params.js';
import { VISIBILITIES } from '../policy/levels.js';
import { fieldOf, VISIBLE_ATTRIBUTES } from '../store/settings_catalogue.js';
import { KEY_SIZES } from '../services/settings/validation.js';

const visibility = () => p.string().values(VISIBILITIES);
const stringOrList = () => new Param<string | string[]>((raw) => (Array.isArray(raw) ? raw.map((v) => coerceString(v)) : coerceString(raw)));
const keyRestriction = (type: string) => p.integer().values([0, ...KEY_SIZES[type], -1]);

/** The import sources PUT accepts (10.8 leaves `gitea` out of the list). */
const API_IMPORT_SOURCES = ['github', 'bitbucket', 'gitlab', 'google_code', 'fogbugz', 'git', 'gitlab_project'];

/** Each `given <flag>` block: the parameters it requires, in order. */
const REQUIRED_WHEN_ENABLED: Record<string, string[]> = {
  domain_blacklist_enabled: ['domain_blacklist'],
  require_two_factor_authentication: ['two_factor_grace_period'],
  shared_runners_enabled: ['shared_runners_text'],
  metrics_enabled: ['metrics_host', 'metrics_port', 'metrics_pool_size', 'metrics_timeout', 'metrics_method_call_threshold', 'metrics_sample_interval', 'metrics_packet_size'],
  sidekiq_throttling_enabled: ['sidekiq_throttling_queus', 'sidekiq_throttling_factor'],
  recaptcha_enabled: ['recaptcha_site_key', 'recaptcha_private_key'],
  akismet_enabled: ['akismet_api_key'],
  sentry_enabled: ['sentry_dsn'],
  clientside_sentry_enabled: ['clientside_sentry_dsn'],
  koding_enabled: ['koding_url'],
  plantuml_enabled: ['plantuml_url'],
  housekeeping_enabled: ['housekeeping_bitmaps_enabled', 'housekeeping_incremental_repack_period', 'housekeeping_full_repack_period', 'housekeeping_gc_period'],
};

const declared: Schema = {
  default_branch_protection: p.integer().values([0, 1, 2]),
  default_project_visibility: visibility(),
  default_snippet_visibility: visibility(),
  default_group_visibility: visibility(),
  restricted_visibility_levels: p.array(p.string()),
  // values() checks each item of a list against the allowed items.
  import_sources: p.array(p.string()).values(API_IMPORT_SOURCES as unknown as string[][]),
  disabled_oauth_sign_in_sources: p.array(p.string()),
  enabled_git_access_protocol: p.string().values(['ssh', 'http', 'nil']),
  project_export_enabled: p.boolean(),
  gravatar_enabled: p.boolean(),
  default_projects_limit: p.integer(),
  max_attachment_size: p.integer(),
  session_expire_delay: p.integer(),
  user_oauth_applications: p.boolean(),
  user_default_external: p.boolean(),
  signup_enabled: p.boolean(),
  send_user_confirmation_email: p.boolean(),
  domain_whitelist: stringOrList(),
  domain_blacklist_enabled: p.boolean(),
  domain_blacklist: stringOrList(),
  after_sign_up_text: p.string(),
  password_authentication_enabled_for_web: p.boolean(),
  password_authentication_enabled: p.boolean(),
  signin_enabled: p.boolean(),
  password_authentication_enabled_for_git: p.boolean(),
  require_two_factor_authentication: p.boolean(),
  two_factor_grace_period: p.integer(),
  home_page_url: p.string(),
  after_sign_out_path: p.string(),
  sign_in_text: p.string(),
  help_page_hide_commercial_content: p.boolean(),
  help_page_text: p.string(),
  help_page_support_url: p.string(),
  shared_runners_enabled: p.boolean(),
  shared_runners_text: p.string(),
  max_artifacts_size: p.integer(),
  default_artifacts_expire_in: p.string(),
  max_pages_size: p.integer(),
  container_registry_token_expire_delay: p.integer(),
  prometheus_metrics_enabled: p.boolean(),
  metrics_enabled: p.boolean(),
  metrics_host: p.string(),
  metrics_port: p.integer(),
  metrics_pool_size: p.integer(),
  metrics_timeout: p.integer(),
  metrics_method_call_threshold: p.integer(),
  metrics_sample_interval: p.integer(),
  metrics_packet_size: p.integer(),
  sidekiq_throttling_enabled: p.boolean(),
  sidekiq_throttling_queus: p.array(p.string()),
  sidekiq_throttling_factor: p.float(),
  recaptcha_enabled: p.boolean(),
  recaptcha_site_key: p.string(),
  recaptcha_private_key: p.string(),
  akismet_enabled: p.boolean(),
  akismet_api_key: p.string(),
  admin_notification_email: p.string(),
  sentry_enabled: p.boolean(),
  sentry_dsn: p.string(),
  clientside_sentry_enabled: p.boolean(),
  clientside_sentry_dsn: p.string(),
  repository_storages: p.array(p.string()),
  repository_checks_enabled: p.boolean(),
  koding_enabled: p.boolean(),
  koding_url: p.string(),
  plantuml_enabled: p.boolean(),
  plantuml_url: p.string(),
  version_check_enabled: p.boolean(),
  email_author_in_body: p.boolean(),
  html_emails_enabled: p.boolean(),
  housekeeping_enabled: p.boolean(),
  housekeeping_bitmaps_enabled: p.boolean(),
  housekeeping_incremental_repack_period: p.integer(),
  housekeeping_full_repack_period: p.integer(),
  housekeeping_gc_period: p.integer(),
  terminal_max_session_time: p.integer(),
  polling_interval_multiplier: p.float(),
  gitaly_timeout_default: p.integer(),
  gitaly_timeout_medium: p.integer(),
  gitaly_timeout_fast: p.integer(),
  rsa_key_restriction: keyRestriction('rsa'),
  dsa_key_restriction: keyRestriction('dsa'),
  ecdsa_key_restriction: keyRestriction('ecdsa'),
  ed25519_key_restriction: keyRestriction('ed25519'),
};

/** A visible attribute Grape declared without a type: typed as its setting. */
function typed(name: string): Param<unknown, boolean> {
  if (name === 'performance_bar_enabled') return p.boolean();
  if (name.endsWith('_raw') || name === 'performance_bar_allowed_group_id') return p.string();
  switch (fieldOf(name)?.kind) {
    case 'boolean':
      return p.boolean();
    case 'integer':
      return p.integer();
    case 'decimal':
      return p.float();
    case 'strings':
      return p.array(p.string());
    default:
      return p.string();
  }
}

export const settingsSchema: Schema = { ...declared };
for (const name of VISIBLE_ATTRIBUTES) if (!(name in settingsSchema)) settingsSchema[name] = typed(name);
// A null reaches the settings model, which answers it as 10.8's does ("can't be blank"; an
// empty list for the domain lists): nullable, every one.
for (const [name, param] of Object.entries(settingsSchema)) settingsSchema[name] = param.nullable();

const after: Record<string, Rules> = {
  signin_enabled: { mutuallyExclusive: [['password_authentication_enabled_for_web', 'password_authentication_enabled', 'signin_enabled']] },
};
for (const [flag, required] of Object.entries(REQUIRED_WHEN_ENABLED)) {
  for (const name of required) after[name] = { given: { [flag]: [name] } };
}

export const settingsRules: Rules = { after, atLeastOneOf: [...VISIBLE_ATTRIBUTES] };

/**
 * The attributes to store, under the settings' own names: the legacy names of
 * password_authentication_enabled_for_web, and the typo GitLab requires, mapped.
 */
export function settingsInput(given: Record<string, unknown>): Record<string, unknown> {
  const out = { ...given };
  for (const legacy of ['signin_enabled', 'password_authentication_enabled']) {
    if (out[legacy] !== undefined) out.password_authentication_enabled_for_web = out[legacy];
    delete out[legacy];
  }
  if (out.sidekiq_throttling_queus !== undefined && out.sidekiq_throttling_queues === undefined) out.sidekiq_throttling_queues = out.sidekiq_throttling_queus;
  delete out.sidekiq_throttling_queus;
  return out;
}
