// GitLab 10.8's merge request entities, in their key order: MergeRequestSimple (`view=simple`
// lists), MergeRequestBasic (lists), MergeRequest (single, create, update, merge; adds
// `subscribed`, `changes_count`, the merge/close metrics, the pipeline fields while the
// project has jobs, and `diff_refs`) and MergeRequestChanges (adds `changes`).
// `allow_maintainer_to_push` is only exposed for merge requests from a fork. A deleted
// author shows as GitLab's Ghost User.
//
// Pure: the extras (users, labels, votes, projects, whether a maintainer may push) are loaded
// by finders/merge_requests.ts and the lazy merge status check runs before rendering
// (api/present_merge_requests.ts).
import type { Urls } from '../http/urls.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';
import type { MergeRequestExtras } from '../store/extras.js';
import { flag } from '../store/rows.js';
import { ghostUser, userBasic } from './user.js';
import { milestoneEntity } from './milestone.js';
import { pipelineBasic } from './pipeline.js';
import type { PipelineRow } from '../store/ci_rows.js';
import { humanTime } from '../store/durations.js';
import { changesOverflow, workInProgress } from '../store/merge_request_facts.js';

/** Past this many changed files the count shows as "1000+" (Commit::DIFF_HARD_LIMIT_FILES). */
const CHANGES_COUNT_CAP = 1000;

/** DiffCollection#real_size: the files of the stored diff, "+" when it was cut at the limits. */
function changesCount(n: number | null, overflow = false): string | null {
  if (n === null) return null;
  if (n > CHANGES_COUNT_CAP) return `${CHANGES_COUNT_CAP}+`;
  return overflow ? `${n}+` : String(n);
}

const nullableFlag = (v: boolean | number | null) => (v === null ? null : flag(v));

function webUrl(row: MergeRequestRow, extras: MergeRequestExtras, urls: Urls): string {
  return urls.web(`${extras.projectPaths.get(row.target_project_id)}/merge_requests/${row.iid}`);
}

function isForFork(row: MergeRequestRow): boolean {
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
    discussion_locked: nullableFlag(row.discussion_locked),
    should_remove_source_branch: nullableFlag(row.should_remove_source_branch),
    force_remove_source_branch: nullableFlag(row.force_remove_source_branch),
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

/** MergeRequest::Metrics as PipelineMetricsWorker keeps them; no deployment tracking (null). */
function metricsFields(p: PipelineRow | null) {
  return {
    latest_build_started_at: p?.started_at ?? null,
    latest_build_finished_at: p?.status === 'success' ? p.finished_at : null,
    first_deployed_to_production_at: null,
    pipeline: p ? pipelineBasic(p) : null,
  };
}

export function mergeRequestEntity(
  row: MergeRequestRow,
  extras: MergeRequestExtras,
  urls: Urls,
  viewer: { subscribed: boolean; allowMaintainerToPush?: boolean | null; metricsPipeline?: PipelineRow | null },
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
    // Exposed while the project has jobs: the metrics of its head pipeline (started or succeeded).
    ...(builds ? metricsFields(viewer.metricsPipeline ?? null) : {}),
    diff_refs: row.head_sha ? { base_sha: row.base_sha, head_sha: row.head_sha, start_sha: row.start_sha } : null,
  };
}
