// GitLab 10.8's Event entity, in its key order, with the spec's leading `title` (always null:
// events have no title of their own since 10.0). `action_name` follows Event#action_name:
// pushes are "pushed new" / "deleted" / "pushed to"; closed, "accepted" (merged), joined,
// left, "removed due to membership expiration from", destroyed, "commented on", "created"
// for a project; everything else — created and reopened issues, merge requests and
// milestones included — "opened". `target_iid` is the target's iid when it has one, else its
// id; `target_title` the target's title (a note's is its noteable's). A comment adds `note`,
// a push `push_data`.
import type { Urls } from '../http/urls.js';
import type { EventExtras } from '../finders/events.js';
import type { EventRow } from '../store/activity_rows.js';
import { EVENT_ACTIONS } from '../store/event_actions.js';
import { userBasic } from './user.js';
import { noteEntity } from './note.js';

const A = EVENT_ACTIONS;

function actionName(e: EventRow, extras: EventExtras): string {
  switch (e.action) {
    case A.pushed: {
      const payload = extras.payloads.get(e.id);
      if (payload?.action === 'created') return 'pushed new';
      if (payload?.action === 'removed') return 'deleted';
      return 'pushed to';
    }
    case A.closed:
      return 'closed';
    case A.merged:
      return 'accepted';
    case A.joined:
      return 'joined';
    case A.left:
      return 'left';
    case A.expired:
      return 'removed due to membership expiration from';
    case A.destroyed:
      return 'destroyed';
    case A.commented:
      return 'commented on';
    case A.created:
      return e.target_type === null ? 'created' : 'opened';
    default:
      return 'opened';
  }
}

export function eventEntity(e: EventRow, extras: EventExtras, urls: Urls) {
  const author = extras.users.get(e.author_id);
  const key = `${e.target_type}:${e.target_id}`;
  const note = e.target_type === 'Note' && e.target_id !== null ? extras.notes.get(e.target_id) : undefined;
  const noteable = note ? extras.noteables.get(`${note.noteable_type}:${note.noteable_id}`) : undefined;
  const target = e.target_type === 'Note' ? undefined : extras.targets.get(key);
  const payload = e.action === A.pushed ? extras.payloads.get(e.id) : undefined;
  return {
    title: null,
    project_id: e.project_id,
    action_name: actionName(e, extras),
    target_id: e.target_id,
    target_iid: target?.iid ?? e.target_id,
    target_type: e.target_type,
    author_id: e.author_id,
    target_title: (note ? noteable?.title : target?.title) ?? e.target_title ?? null,
    created_at: e.created_at,
    ...(note ? { note: noteEntity(note, noteable?.iid ?? (null as unknown as number), extras.users, urls) } : {}),
    ...(author ? { author: userBasic(author, urls) } : {}),
    ...(e.action === A.pushed
      ? {
          push_data: payload
            ? {
                commit_count: payload.commit_count,
                action: payload.action,
                ref_type: payload.ref_type,
                commit_from: payload.commit_from,
                commit_to: payload.commit_to,
                ref: payload.ref,
                commit_title: payload.commit_title,
              }
            : null,
        }
      : {}),
    author_username: author?.username ?? null,
  };
}
