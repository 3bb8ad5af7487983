// GitLab 10.8's Entities::ApplicationSetting: `id`, every visible attribute in its order
// (visibility settings as names, the domain lists also as the newline-joined `_raw` text the
// entity exposes), the legacy names `password_authentication_enabled` and `signin_enabled`
// mirroring password_authentication_enabled_for_web, and the row's timestamps (as the
// documented examples show them).
import { SETTING_NAMES, type ApplicationSettings } from '../store/settings_catalogue.js';
import { visibilityName } from '../store/levels.js';

export function applicationSettingEntity(s: ApplicationSettings): Record<string, unknown> {
  const out: Record<string, unknown> = { id: s.id };
  const values = s as unknown as Record<string, unknown>;
  for (const name of SETTING_NAMES) {
    switch (name) {
      case 'default_group_visibility':
      case 'default_project_visibility':
      case 'default_snippet_visibility':
        out[name] = visibilityName(s[name]);
        break;
      case 'restricted_visibility_levels':
        out[name] = s.restricted_visibility_levels.map(visibilityName);
        break;
      case 'domain_blacklist':
      case 'domain_whitelist':
        out[`${name}_raw`] = s[name].join('\n');
        break;
      case 'performance_bar_allowed_group_id':
        out[name] = s.performance_bar_allowed_group_id;
        out.performance_bar_enabled = s.performance_bar_allowed_group_id !== null;
        break;
      default:
        out[name] = values[name];
    }
  }
  out.password_authentication_enabled = s.password_authentication_enabled_for_web;
  out.signin_enabled = s.password_authentication_enabled_for_web;
  out.domain_whitelist = s.domain_whitelist;
  out.domain_blacklist = s.domain_blacklist;
  out.created_at = s.created_at;
  out.updated_at = s.updated_at;
  return out;
}
