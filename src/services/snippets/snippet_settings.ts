// The application settings snippets obey (services/settings/application_settings.ts), in the shape the
// snippet services take: `max_attachment_size` (MB; Wharf's limit on a snippet's content, as
// 10.8 has no snippet limit of its own) and `restricted_visibility_levels` (levels only admins
// may give). The one place snippets read the settings.
import type { Conn } from '../../store/db.js';
import { settingsOf } from '../settings/application_settings.js';

export interface SnippetSettings {
  /** The largest snippet content, in megabytes. */
  maxAttachmentSize: number;
  restrictedVisibilityLevels: readonly number[];
}

export async function snippetSettings(deps: { db: Conn }): Promise<SnippetSettings> {
  const settings = await settingsOf(deps);
  return { maxAttachmentSize: settings.max_attachment_size, restrictedVisibilityLevels: settings.restricted_visibility_levels };
}
