// Webhook rows (migration 20261122000036) and the names of their triggers: GitLab 10.8's
// `web_hooks` columns, and its hook scopes (TriggerableHooks: `push_hooks` → push_events).
import type { Flag } from './rows.js';

export type HookType = 'ProjectHook' | 'SystemHook';

export interface WebHookRow {
  id: number;
  type: HookType;
  project_id: number | null;
  url: string;
  token: string | null;
  push_events: Flag;
  tag_push_events: Flag;
  issues_events: Flag;
  confidential_issues_events: Flag;
  merge_requests_events: Flag;
  note_events: Flag;
  confidential_note_events: Flag;
  job_events: Flag;
  pipeline_events: Flag;
  wiki_page_events: Flag;
  repository_update_events: Flag;
  enable_ssl_verification: Flag;
  created_at: string;
  updated_at: string;
}

/** GitLab's hook scopes and the column each one reads. */
export const HOOK_SCOPES = {
  push_hooks: 'push_events',
  tag_push_hooks: 'tag_push_events',
  issue_hooks: 'issues_events',
  confidential_issue_hooks: 'confidential_issues_events',
  merge_request_hooks: 'merge_requests_events',
  note_hooks: 'note_events',
  confidential_note_hooks: 'confidential_note_events',
  job_hooks: 'job_events',
  pipeline_hooks: 'pipeline_events',
  wiki_page_hooks: 'wiki_page_events',
} as const;

export type HookScope = keyof typeof HOOK_SCOPES;

/** The scopes that system hooks also receive when enabled (SystemHook's triggerable hooks). */
export const SYSTEM_SCOPES: readonly HookScope[] = ['push_hooks', 'tag_push_hooks', 'merge_request_hooks'];

/** X-Gitlab-Event: the hook name, singular and titleized ("push_hooks" → "Push Hook",
 * "confidential_issue_hooks" → "Confidential Issue Hook", "system_hooks" → "System Hook"). */
export function eventHeader(hookName: HookScope | 'system_hooks'): string {
  return hookName
    .replace(/s$/, '')
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}
