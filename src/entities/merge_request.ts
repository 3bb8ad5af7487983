// GitLab 10.8's merge request entities, in their key order: MergeRequestSimple (`view=simple`
// lists), MergeRequestBasic (lists), MergeRequest (single, create, update, merge; adds
// `subscribed`, `changes_count`, the merge/close metrics, the pipeline fields while the
// project has jobs, and `diff_refs`) and MergeRequestChanges (adds `changes`).
// `allow_maintainer_to_push` is only exposed for merge requests from a fork. A deleted
// author shows as GitLab's Ghost User.
import type { Deps } from '../deps.js';
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import { loadMergeRequestExtras, type MergeRequestExtras } from '../finders/merge_requests.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { isProtected } from '../policy/branches.js';
import { PRIVATE } from '../store/levels.js';
import { ensureMergeStatus } from '../services/merge_status.js';
import { subscriptionsFor } from '../services/subscriptions.js';
import { ghostUser, userBasic } from './user.js';
import { milestoneEntity } from './milestone.js';
import { humanTime } from '../store/durations.js';
import { changesOverflow, workInProgress } from '../store/merge_request_facts.js';

/** Past this many changed files the count shows as "1000+" (Commit::DIFF_HARD_LIMIT_FILES). */
export const CHANGES_COUNT_CAP = 1000;

/** DiffCollection#real_size: the files of the stored diff, "+" when it was cut at the limits. */
export function changesCount(n: number | null, overflow = false): string | null {
  if (n === null) return null;
  if (n > CHANGES_COUNT_CAP) return `${CHANGES_COUNT_CAP}+`;
  return overflow ? `${n}+` : String(n);
}

const flag = (v: boolean | number | null) => (v === null ? null : !!v);

function webUrl(row: MergeRequestRow, extras: MergeRequestExtras, urls: Urls): string {
  return urls.web(`${extras.projectPaths.get(row.target_project_id)}/merge_requests/${row.iid}`);
}

export function isForFork(row: MergeRequestRow): boolean {
  return row.source_project_id !== row.target_project_id;
}

export function mergeRequestSimple(row: MergeRequestRow, extras: MergeRequestExtras, urls: Urls) {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.target_project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    web_url: webUrl(row, extras, urls),
  };
}

/** `allowMaintainerToPush`: the value for a fork merge request (see `maintainerPush`). */
export function mergeRequestBasic(row: MergeRequestRow, extras: MergeRequestExtras, urls: Urls, allowMaintainerToPush?: boolean | null) {
  const user = (id: number | null) => (id === null ? undefined : extras.users.get(id));
  const author = user(row.author_id);
  const assignee = user(row.assignee_id);
  const milestone = row.milestone_id === null ? undefined : extras.milestones.get(row.milestone_id);
  const votes = extras.votes.get(row.id) ?? { upvotes: 0, downvotes: 0 };
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.target_project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    target_branch: row.target_branch,
    source_branch: row.source_branch,
    upvotes: votes.upvotes,
    downvotes: votes.downvotes,
    author: author ? userBasic(author, urls) : ghostUser(urls),
    assignee: assignee ? userBasic(assignee, urls) : null,
    source_project_id: row.source_project_id,
    target_project_id: row.target_project_id,
    labels: extras.labels.get(row.id) ?? [],
    work_in_progress: workInProgress(row.title),
    milestone: milestone ? milestoneEntity(milestone) : null,
    merge_when_pipeline_succeeds: !!row.merge_when_pipeline_succeeds,
    merge_status: row.merge_status,
    sha: row.head_sha,
    merge_commit_sha: row.merge_commit_sha,
    user_notes_count: row.user_notes_count,
    discussion_locked: flag(row.discussion_locked),
    should_remove_source_branch: flag(row.should_remove_source_branch),
    force_remove_source_branch: flag(row.force_remove_source_branch),
    ...(isForFork(row) ? { allow_maintainer_to_push: allowMaintainerToPush ?? false } : {}),
    web_url: webUrl(row, extras, urls),
    time_stats: {
      time_estimate: row.time_estimate,
      total_time_spent: row.total_time_spent,
      human_time_estimate: humanTime(row.time_estimate),
      human_total_time_spent: humanTime(row.total_time_spent),
    },
  };
}

/**
 * MergeRequest#allow_maintainer_to_push: the stored choice, only while a maintainer push is
 * possible (both projects public or internal, the source branch not protected).
 */
export async function maintainerPush(deps: Deps, row: MergeRequestRow, extras: MergeRequestExtras): Promise<boolean | null> {
  if (!isForFork(row) || row.source_project_id === null) return false;
  const target = extras.projects.get(row.target_project_id);
  const source = extras.projects.get(row.source_project_id);
  if (!target || !source || target.visibilityLevel <= PRIVATE || source.visibilityLevel <= PRIVATE) return false;
  const sourceProject = await findProjectByIdOrPath(deps.db, String(row.source_project_id));
  if (!sourceProject || (await isProtected(deps.db, sourceProject, row.source_branch))) return false;
  return row.allow_maintainer_to_push === null ? null : !!row.allow_maintainer_to_push;
}

/** Subscription of each merge request for the viewer: explicit choice, else participation. */
async function subscriptionsOf(deps: Deps, rows: MergeRequestRow[], user: UserRow | null): Promise<Map<number, boolean>> {
  if (!user) return new Map();
  const targets = rows.map((r) => ({
    type: 'MergeRequest' as const,
    id: r.id,
    authorId: r.author_id,
    assigneeIds: r.assignee_id === null ? [] : [r.assignee_id],
    title: r.title,
    description: r.description,
  }));
  return subscriptionsFor(deps.db, user, 'MergeRequest', targets);
}

export function mergeRequestEntity(
  row: MergeRequestRow,
  extras: MergeRequestExtras,
  urls: Urls,
  viewer: { subscribed: boolean; allowMaintainerToPush?: boolean | null },
) {
  const user = (id: number | null) => (id === null ? undefined : extras.users.get(id));
  const mergedBy = user(row.merged_by_id);
  const closedBy = user(row.closed_by_id);
  const builds = extras.projects.get(row.target_project_id)?.jobsEnabled ?? false;
  return {
    ...mergeRequestBasic(row, extras, urls, viewer.allowMaintainerToPush),
    subscribed: viewer.subscribed,
    changes_count: changesCount(row.changes_count, changesOverflow(row)),
    merged_by: mergedBy ? userBasic(mergedBy, urls) : null,
    merged_at: row.merged_at,
    closed_by: closedBy ? userBasic(closedBy, urls) : null,
    closed_at: row.closed_at,
    // Exposed while the project has jobs; Wharf has no pipelines yet.
    ...(builds ? { latest_build_started_at: null, latest_build_finished_at: null, first_deployed_to_production_at: null, pipeline: null } : {}),
    diff_refs: row.head_sha ? { base_sha: row.base_sha, head_sha: row.head_sha, start_sha: row.start_sha } : null,
  };
}

/**
 * Full MergeRequest entities of these rows for the viewer (single responses, todo targets),
 * each after GitLab's lazy merge status check.
 */
export async function presentMergeRequests(deps: Deps, rows: MergeRequestRow[], user: UserRow | null): Promise<Record<string, unknown>[]> {
  const checked: MergeRequestRow[] = [];
  for (const r of rows) checked.push(await ensureMergeStatus(deps, r));
  const [extras, subscriptions] = await Promise.all([loadMergeRequestExtras(deps.db, checked), subscriptionsOf(deps, checked, user)]);
  const out: Record<string, unknown>[] = [];
  for (const r of checked) {
    const allow = isForFork(r) ? await maintainerPush(deps, r, extras) : undefined;
    out.push(mergeRequestEntity(r, extras, deps.urls, { subscribed: subscriptions.get(r.id) ?? false, allowMaintainerToPush: allow }));
  }
  return out;
}

/**
 * Basic (or simple) entities of a page of rows: one batch of extras. MergeRequestBasic's
 * merge_status ran check_if_can_be_merged too, which only acts on 'unchecked' rows: those
 * are checked here, the others shown as stored.
 */
export async function presentMergeRequestList(deps: Deps, page: MergeRequestRow[], simple: boolean): Promise<Record<string, unknown>[]> {
  const extras = await loadMergeRequestExtras(deps.db, page, { simple });
  if (simple) return page.map((r) => mergeRequestSimple(r, extras, deps.urls));
  const rows: MergeRequestRow[] = [];
  for (const r of page) rows.push(r.state === 'opened' && r.merge_status === 'unchecked' ? await ensureMergeStatus(deps, r) : r);
  const out: Record<string, unknown>[] = [];
  for (const r of rows) {
    const allow = isForFork(r) ? await maintainerPush(deps, r, extras) : undefined;
    out.push(mergeRequestBasic(r, extras, deps.urls, allow));
  }
  return out;
}
