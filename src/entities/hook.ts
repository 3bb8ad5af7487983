// GitLab 10.8's Entities::Hook (system hooks) and Entities::ProjectHook: the hook's URL and
// events, never its token.
import type { WebHookRow } from '../store/hook_rows.js';

const bool = (v: unknown) => v === true || v === 1;

export function hookEntity(h: WebHookRow) {
  return {
    id: h.id,
    url: h.url,
    created_at: h.created_at,
    push_events: bool(h.push_events),
    tag_push_events: bool(h.tag_push_events),
    merge_requests_events: bool(h.merge_requests_events),
    repository_update_events: bool(h.repository_update_events),
    enable_ssl_verification: bool(h.enable_ssl_verification),
  };
}

export function projectHookEntity(h: WebHookRow) {
  return {
    ...hookEntity(h),
    project_id: h.project_id,
    issues_events: bool(h.issues_events),
    confidential_issues_events: bool(h.confidential_issues_events),
    note_events: bool(h.note_events),
    confidential_note_events: bool(h.confidential_note_events),
    pipeline_events: bool(h.pipeline_events),
    wiki_page_events: bool(h.wiki_page_events),
    job_events: bool(h.job_events),
  };
}
