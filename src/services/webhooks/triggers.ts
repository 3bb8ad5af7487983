// Queueing webhook deliveries (GitLab 10.8's Project#execute_hooks and SystemHooksService),
// always INSIDE the transaction of the change: a delivery exists exactly when the change
// commits, and it is sent afterwards by the `web_hook` job (src/jobs/web_hook.ts), one job per
// hook, so that a slow receiver delays nothing but its own deliveries.
//
// What is queued is data: a snapshot of the rows taken in the transaction (HookEvent), turned
// into GitLab's payload when sent (webhooks/payloads.ts adds the URLs and the user and project
// attributes). As in 10.8, a project event in the push, tag push or merge request scope also
// goes to the system hooks that enabled it.
// Pipeline and job events are queued by webhooks/project_subscriber.ts and shaped by
// webhooks/ci_payloads.ts.
import type { Conn } from '../../store/db.js';
import { enqueueJob } from '../../store/job_queue.js';
import { HOOK_SCOPES, SYSTEM_SCOPES, type HookScope, type WebHookRow } from '../../store/hook_rows.js';
import type { IssueRow, LabelRow, MergeRequestRow, NoteRow } from '../../store/issuable_rows.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import { flag } from '../../store/rows.js';
import { labelsOfIssuable } from '../../finders/issuable_labels.js';

export const WEB_HOOK_JOB = 'web_hook';

/** A commit of a push, as read from the repository before the transaction. */
export interface CommitSnapshot {
  id: string;
  message: string;
  timestamp: string;
  author: { name: string; email: string };
  added: string[];
  modified: string[];
  removed: string[];
}

/** Previous and current values of what an issuable change changed. */
export type Changes = Record<string, [unknown, unknown]>;

export type HookEvent =
  | {
      kind: 'push';
      tag: boolean;
      projectId: number;
      userId: number;
      before: string;
      after: string;
      ref: string;
      checkoutSha: string | null;
      /** An annotated tag's message (Tag Push Hook); absent or null otherwise. */
      message?: string | null;
      commits: CommitSnapshot[];
      totalCommits: number;
    }
  | { kind: 'issue'; projectId: number; userId: number; action: string; issue: IssueRow; assigneeIds: number[]; labels: LabelRow[]; changes: Changes }
  | { kind: 'merge_request'; projectId: number; userId: number; action: string; mergeRequest: MergeRequestRow; labels: LabelRow[]; changes: Changes }
  | { kind: 'note'; projectId: number; userId: number; note: NoteRow; issue?: IssueRow; mergeRequest?: MergeRequestRow }
  | PipelineHookEvent
  | JobHookEvent
  /** A payload already in its final shape (system events). */
  | { kind: 'data'; data: Record<string, unknown> };

/** A pipeline's status change: the pipeline, all its jobs (retried ones too), its stage names in order, and whether a job allowed to fail failed. */
export interface PipelineHookEvent {
  kind: 'pipeline';
  projectId: number;
  pipeline: PipelineRow;
  builds: BuildRow[];
  stages: string[];
  warnings: boolean;
}

/** A job created or moved to running, success, failed or canceled. */
export interface JobHookEvent {
  kind: 'build';
  projectId: number;
  build: BuildRow;
}

/** What a `web_hook` job carries. */
export interface WebHookJobPayload {
  hookId: number;
  hookName: HookScope | 'system_hooks';
  event: HookEvent;
}

/** Attempts of one delivery: the first and three retries. */
export const DELIVERY_ATTEMPTS = 4;
/** The waits before the retries of a delivery: 10 s, 1 min, 5 min (fixed, so they can be relied on). */
export const DELIVERY_RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 300_000];

/** A hook's deliveries run one at a time (the job queue's group). */
function deliveryGroup(hookId: number): string {
  return `web_hook:${hookId}`;
}

async function enqueueFor(tx: Conn, hooks: Pick<WebHookRow, 'id'>[], hookName: WebHookJobPayload['hookName'], event: HookEvent): Promise<void> {
  for (const hook of hooks) {
    const payload: WebHookJobPayload = { hookId: hook.id, hookName, event };
    await enqueueJob(tx, WEB_HOOK_JOB, payload, { maxAttempts: DELIVERY_ATTEMPTS, groupKey: deliveryGroup(hook.id) });
  }
}

/** The project's hooks (and, for the system scopes, the system hooks) that want `scope`, in one query. */
async function hooksFor(tx: Conn, projectId: number, scope: HookScope): Promise<{ project: { id: number }[]; system: { id: number }[] }> {
  const column = HOOK_SCOPES[scope];
  const withSystem = SYSTEM_SCOPES.includes(scope);
  const rows: { id: number; type: string }[] = await tx('web_hooks')
    .where(column, true)
    .where((w) => {
      w.where({ type: 'ProjectHook', project_id: projectId });
      if (withSystem) w.orWhere({ type: 'SystemHook' });
    })
    .orderBy('id')
    .select('id', 'type');
  return { project: rows.filter((r) => r.type === 'ProjectHook'), system: rows.filter((r) => r.type === 'SystemHook') };
}

/** Whether the project has a hook at all, or there is a system hook (one indexed query): what every trigger asks first. */
async function anyHookFor(tx: Conn, projectId: number): Promise<boolean> {
  return !!(await tx('web_hooks').where({ type: 'ProjectHook', project_id: projectId }).orWhere({ type: 'SystemHook' }).first('id'));
}

/** Whether any hook would receive `scope` for the project (lets a caller skip costly snapshots). */
export async function projectHasHooks(db: Conn, projectId: number, scope: HookScope): Promise<boolean> {
  const { project, system } = await hooksFor(db, projectId, scope);
  return project.length + system.length > 0;
}

/**
 * Queues a delivery of `event` to every hook of the project that enabled `scope` (and to the
 * system hooks for push, tag push and merge request events). Call inside the change's
 * transaction. `event` may be a function, called only when some hook wants the event.
 */
export async function enqueueProjectHooks(tx: Conn, projectId: number, scope: HookScope, event: HookEvent | (() => Promise<HookEvent>)): Promise<void> {
  const { project, system } = await hooksFor(tx, projectId, scope);
  if (!project.length && !system.length) return;
  const data = typeof event === 'function' ? await event() : event;
  await enqueueFor(tx, project, scope, data);
  await enqueueFor(tx, system, 'system_hooks', data);
}

/** enqueueProjectHooks for several events of one project (a new pipeline's jobs): the hooks are read once. */
export async function enqueueProjectHooksEach(tx: Conn, projectId: number, scope: HookScope, events: HookEvent[]): Promise<void> {
  if (!events.length) return;
  const { project, system } = await hooksFor(tx, projectId, scope);
  for (const data of events) {
    await enqueueFor(tx, project, scope, data);
    await enqueueFor(tx, system, 'system_hooks', data);
  }
}

/** Queues a system event (SystemHooksService with scope :all) to every system hook. */
export async function enqueueSystemHooks(tx: Conn, data: Record<string, unknown>): Promise<void> {
  const hooks = await tx('web_hooks').where({ type: 'SystemHook' }).orderBy('id').select('id');
  await enqueueFor(tx, hooks, 'system_hooks', { kind: 'data', data });
}

/** The keys of an issue's changes 10.8 reports (IssueBuilder::SAFE_HOOK_ATTRIBUTES). */
const ISSUE_KEYS = [
  'assignee_id',
  'author_id',
  'closed_at',
  'confidential',
  'created_at',
  'description',
  'due_date',
  'id',
  'iid',
  'milestone_id',
  'project_id',
  'state',
  'time_estimate',
  'title',
  'updated_at',
] as const;
/** MergeRequestBuilder::SAFE_HOOK_ATTRIBUTES that Wharf has. */
const MR_KEYS = [
  'assignee_id',
  'author_id',
  'created_at',
  'description',
  'id',
  'iid',
  'merge_commit_sha',
  'merge_status',
  'milestone_id',
  'source_branch',
  'source_project_id',
  'state',
  'target_branch',
  'target_project_id',
  'time_estimate',
  'title',
  'updated_at',
] as const;

function diffRows(before: Record<string, unknown> | null, after: Record<string, unknown>, keys: readonly string[]): Changes {
  const norm = (v: unknown) => (typeof v === 'boolean' ? Number(v) : (v ?? null));
  const changes: Changes = {};
  for (const key of keys) {
    const prev = before ? norm(before[key]) : null;
    const cur = norm(after[key]);
    if (prev !== cur) changes[key] = [before ? (before[key] ?? null) : null, after[key] ?? null];
  }
  return changes;
}

/**
 * Queues the issue hooks of a created or changed issue (Issues::BaseService#execute_hooks):
 * `before` is the row before the change (null on create), `labelsBefore` its labels.
 */
export async function enqueueIssueHooks(
  tx: Conn,
  issueId: number,
  userId: number,
  action: string,
  before: (IssueRow & { assignee_id?: number | null }) | null,
  labelsBefore?: LabelRow[] | null,
): Promise<void> {
  const issue: IssueRow | undefined = await tx('issues').where({ id: issueId }).first();
  if (!issue) return;
  const scope: HookScope = flag(issue.confidential) ? 'confidential_issue_hooks' : 'issue_hooks';
  await enqueueProjectHooks(tx, issue.project_id, scope, async () => {
    const assigneeIds = (await tx('issue_assignees').where({ issue_id: issue.id }).orderBy('user_id').select('user_id')).map((r: { user_id: number }) => r.user_id);
    const labels = await labelsOfIssuable(tx, 'Issue', issue.id);
    const changes = diffRows(before as unknown as Record<string, unknown>, { ...issue, assignee_id: assigneeIds[0] ?? null }, ISSUE_KEYS);
    if (before && labelsBefore && labelIds(labelsBefore) !== labelIds(labels)) changes.labels = [labelsBefore, labels];
    return { kind: 'issue', projectId: issue.project_id, userId, action, issue, assigneeIds, labels, changes };
  });
}

/** Queues the merge request hooks of a created or changed merge request (MergeRequests::BaseService#execute_hooks). */
export async function enqueueMergeRequestHooks(
  tx: Conn,
  mrId: number,
  userId: number,
  action: string,
  before: MergeRequestRow | null,
  labelsBefore?: LabelRow[] | null,
): Promise<void> {
  const mr: MergeRequestRow | undefined = await tx('merge_requests').where({ id: mrId }).first();
  if (!mr) return;
  await enqueueProjectHooks(tx, mr.target_project_id, 'merge_request_hooks', async () => {
    const labels = await labelsOfIssuable(tx, 'MergeRequest', mr.id);
    const changes = diffRows(before as unknown as Record<string, unknown>, mr as unknown as Record<string, unknown>, MR_KEYS);
    if (before && labelsBefore && labelIds(labelsBefore) !== labelIds(labels)) changes.labels = [labelsBefore, labels];
    return { kind: 'merge_request', projectId: mr.target_project_id, userId, action, mergeRequest: mr, labels, changes };
  });
}

function labelIds(labels: LabelRow[]): string {
  return labels
    .map((l) => l.id)
    .sort((a, b) => a - b)
    .join(',');
}

/** Queues the note hooks of a new comment (Notes::PostProcessService#execute_note_hooks). */
export async function enqueueNoteHooks(tx: Conn, noteId: number, userId: number): Promise<void> {
  const note: NoteRow | undefined = await tx('notes').where({ id: noteId }).first();
  if (!note || !(await anyHookFor(tx, note.project_id))) return;
  let issue: IssueRow | undefined;
  let mergeRequest: MergeRequestRow | undefined;
  if (note.noteable_type === 'Issue') issue = await tx('issues').where({ id: note.noteable_id }).first();
  else if (note.noteable_type === 'MergeRequest') mergeRequest = await tx('merge_requests').where({ id: note.noteable_id }).first();
  const scope: HookScope = issue && flag(issue.confidential) ? 'confidential_note_hooks' : 'note_hooks';
  await enqueueProjectHooks(tx, note.project_id, scope, { kind: 'note', projectId: note.project_id, userId, note, issue, mergeRequest });
}
