// The instance's visibility settings applied to new and changed projects and groups (GitLab
// 10.8's BaseService#deny_visibility_level and UpdateVisibilityLevel): a level the
// `restricted_visibility_levels` setting lists is refused to non-admins with
// "<level> has been restricted by your GitLab administrator", before any other check.
import type { UserRow } from '../../store/rows.js';
import type { ApplicationSettings } from '../../store/settings_catalogue.js';
import { visibilityName } from '../../store/levels.js';
import { visibilityAllowedFor } from '../../policy/visibility.js';

export type VisibilityErrors = Record<string, string[]>;

/** GitLab's error for a restricted level, keyed as the model's `visibility_level`; null when allowed. */
export function deniedVisibility(settings: ApplicationSettings, user: UserRow | null, level: number): VisibilityErrors | null {
  if (visibilityAllowedFor(user, level, settings.restricted_visibility_levels)) return null;
  return { visibility_level: [`${visibilityName(level)} has been restricted by your GitLab administrator`] };
}
