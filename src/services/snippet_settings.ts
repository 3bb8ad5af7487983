// The application settings snippets obey, with GitLab 10.8's defaults: `max_attachment_size`
// (MB; Wharf's limit on a snippet's content, as 10.8 has no snippet limit of its own) and
// `restricted_visibility_levels` (levels only admins may give).
//
// RECONCILE AT MERGE: the settings are being built in src/services/application_settings.ts
// (`settingsOf(deps)`, issue "settings"); this function is the one place snippets read them, so
// it becomes a call to settingsOf(deps) there and this file goes.
import type { Conn } from '../store/db.js';

export interface SnippetSettings {
  /** The largest snippet content, in megabytes. */
  maxAttachmentSize: number;
  restrictedVisibilityLevels: readonly number[];
}

const DEFAULTS: SnippetSettings = { maxAttachmentSize: 10, restrictedVisibilityLevels: [] };

export async function snippetSettings(_deps: { db: Conn }): Promise<SnippetSettings> {
  return DEFAULTS;
}
