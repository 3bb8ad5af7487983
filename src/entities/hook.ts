// GitLab 10.8's Entities::Hook (system hooks) and Entities::ProjectHook: the hook's URL and
// events, never its token.
import type { WebHookRow } from '../store/hook_rows.js';
import { flag } from '../store/rows.js';

export function hookEntity(h: WebHookRow) {
  return {
    id: h.id,
    url: h.url,
    created_at: h.created_at,
    push_events: flag(h.push_events),
    tag_push_events: flag(h.tag_push_events),
    merge_requests_events: flag(h.merge_requests_events),
    repository_update_events: flag(h.repository_update_events),
    enable_ssl_verification: flag(h.enable_ssl_verification),
  };
}

export function projectHookEntity(h: WebHookRow) {
  return {
    ...hookEntity(h),
    project_id: h.project_id,
    issues_events: flag(h.issues_events),
    confidential_issues_events: flag(h.confidential_issues_events),
    note_events: flag(h.note_events),
    confidential_note_events: flag(h.confidential_note_events),
    pipeline_events: flag(h.pipeline_events),
    wiki_page_events: flag(h.wiki_page_events),
    job_events: flag(h.job_events),
  };
}
