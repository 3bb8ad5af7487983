// GitLab 10.8's IssueBasic (lists) and Issue (single, create, edit: adds `_links` and
// `subscribed`), in its key order. A deleted author shows as GitLab's Ghost User; a deleted
// closer as no closed_by. Votes count the thumbsup/thumbsdown award emoji.
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import type { IssueExtras } from '../store/extras.js';
import type { IssueRow } from '../store/issuable_rows.js';
import { ghostUser, userBasic } from './user.js';
import { milestoneEntity } from './milestone.js';
import { humanTime } from '../store/durations.js';

// A page shows the same few users many times: each is presented once per page (extras).
const presentedUsers = new WeakMap<IssueExtras, Map<number, ReturnType<typeof userBasic>>>();

function presentUser(extras: IssueExtras, u: UserRow, urls: Urls) {
  let cache = presentedUsers.get(extras);
  if (!cache) presentedUsers.set(extras, (cache = new Map()));
  let out = cache.get(u.id);
  if (!out) cache.set(u.id, (out = userBasic(u, urls)));
  return out;
}

export function issueBasic(row: IssueRow, extras: IssueExtras, urls: Urls) {
  const user = (id: number | null) => (id === null ? undefined : extras.users.get(id));
  const basic = (u: UserRow) => presentUser(extras, u, urls);
  const assignees = (extras.assignees.get(row.id) ?? [])
    .map(user)
    .filter((u): u is UserRow => !!u)
    .map(basic);
  const author = user(row.author_id);
  const closer = user(row.closed_by_id);
  const milestone = row.milestone_id === null ? undefined : extras.milestones.get(row.milestone_id);
  const votes = extras.votes.get(row.id);
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    closed_at: row.closed_at,
    closed_by: closer ? basic(closer) : null,
    labels: extras.labels.get(row.id) ?? [],
    milestone: milestone ? milestoneEntity(milestone) : null,
    assignees,
    author: author ? basic(author) : ghostUser(urls),
    assignee: assignees[0] ?? null,
    user_notes_count: row.user_notes_count,
    upvotes: votes?.upvotes ?? 0,
    downvotes: votes?.downvotes ?? 0,
    due_date: row.due_date,
    confidential: !!row.confidential,
    discussion_locked: row.discussion_locked === null ? null : !!row.discussion_locked,
    web_url: urls.web(`${extras.projectPaths.get(row.project_id)}/issues/${row.iid}`),
    time_stats: {
      time_estimate: row.time_estimate,
      total_time_spent: row.total_time_spent,
      human_time_estimate: humanTime(row.time_estimate),
      human_total_time_spent: humanTime(row.total_time_spent),
    },
  };
}

export function issueEntity(row: IssueRow, extras: IssueExtras, urls: Urls, subscribed: boolean) {
  return {
    ...issueBasic(row, extras, urls),
    _links: {
      self: urls.apiProject(row.project_id, `/issues/${row.iid}`),
      notes: urls.apiProject(row.project_id, `/issues/${row.iid}/notes`),
      award_emoji: urls.apiProject(row.project_id, `/issues/${row.iid}/award_emoji`),
      project: urls.apiProject(row.project_id),
    },
    subscribed,
  };
}
