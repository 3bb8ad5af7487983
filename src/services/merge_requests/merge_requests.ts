// Creating, changing and deleting merge requests (GitLab 10.8's MergeRequests::CreateService,
// UpdateService, Close/ReopenService, Issuable::DestroyService and the MergeRequest model's
// validations). The caller has checked the permissions and passes only what the user may
// set (admin_merge_request fields dropped otherwise); this module applies GitLab's quiet
// filtering of values (a milestone not of the target project is unset, an assignee who
// cannot read merge requests is dropped by the caller) and its validations, answered as
// the API's handle_merge_request_errors! does:
// - same project and branch: 422 {"error":["You can not use same project/branch for source and target"]}
// - source not in the target's fork network: 422 {"error":["Source project is not a fork of the target project"]}
// - another open merge request for the pair: 409 {"message":["Cannot Create: This merge request already exists: [\"<title>\"]"]}
// - anything else (title, missing branch): 400 {"message":{"<field>":[...]}}.
// Git work (the diff refresh) happens after the transaction commits.
import type { Deps } from '../../deps.js';
import { deleteIssuableDependents } from '../issuables/deletion.js';
import type { Conn, Tx } from '../../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { DuplicateMergeRequest, Invalid, InvalidMergeRequestBranches } from '../../store/domain_errors.js';
import { nextIid } from '../../store/iids.js';
import { now } from '../../store/time.js';
import { findMergeRequest, findOpenMergeRequests } from '../../finders/merge_requests.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import { fullPathOf, gitdirOf } from '../../finders/projects.js';
import { applyLabelChange, changesLabels, type LabelChange } from '../issuables/issuable_labels.js';
import { labelsOfIssuable } from '../../finders/issuable_labels.js';
import { announce } from '../notify.js';
import type { IssuableRef } from '../domain_events.js';
import { refreshDiff } from './diff.js';
import { deleteMergeRequestRefs } from '../../git/merge_refs.js';

const MAX_TITLE = 255;

export interface MergeRequestInput extends LabelChange {
  title?: string;
  description?: string | null;
  targetBranch?: string;
  /** null unassigns; already cut to readers by the caller. */
  assigneeId?: number | null;
  /** null unassigns; an id not of the target project unsets too. */
  milestoneId?: number | null;
  /** Comma-separated titles; '' removes every label (add/remove: LabelChange). */
  labels?: string;
  forceRemoveSourceBranch?: boolean;
  allowMaintainerToPush?: boolean;
  discussionLocked?: boolean | null;
  stateEvent?: 'close' | 'reopen';
}

export interface NewMergeRequest extends MergeRequestInput {
  title: string;
  sourceBranch: string;
  targetBranch: string;
}

export interface MergeRequestOptions {
  /** The user may create missing labels in the target project (admin_label). */
  createLabels: boolean;
}

function titleErrors(title: string | undefined, errors: Record<string, string[]>): void {
  if (title === undefined) return;
  if (title.trim() === '') errors.title = ["can't be blank"];
  else if (title.length > MAX_TITLE) errors.title = [`is too long (maximum is ${MAX_TITLE} characters)`];
}

/** Ruby's Array#inspect of the titles, as GitLab interpolated `pluck(:title)`. */
function rubyInspect(titles: string[]): string {
  const quote = (t: string) => `"${t.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/#\{/g, '\\#{')}"`;
  return `[${titles.map(quote).join(', ')}]`;
}

/** The root of a project's fork network (itself when it is no fork). */
async function forkRoot(db: Conn, projectId: number): Promise<number> {
  let id = projectId;
  for (let i = 0; i < 100; i++) {
    const row: { forked_from_id: number | null } | undefined = await db('projects').where({ id }).first('forked_from_id');
    if (!row || row.forked_from_id === null) return id;
    id = row.forked_from_id;
  }
  return id;
}

/** Project#in_fork_network_of?: both projects belong to the same fork network. */
async function inSameForkNetwork(db: Conn, a: number, b: number): Promise<boolean> {
  return (await forkRoot(db, a)) === (await forkRoot(db, b));
}

/**
 * The model's validations, in the order the API reports them. `self` is the merge request
 * being changed (excluded from the duplicate check).
 */
async function validate(
  deps: Deps,
  tx: Conn,
  mr: { sourceProject: ProjectWithNamespace | null; targetProject: ProjectWithNamespace; sourceBranch: string; targetBranch: string; title?: string; opened: boolean },
  branches: { source: boolean; target: boolean },
  self?: number,
): Promise<void> {
  const { sourceProject, targetProject } = mr;
  if (sourceProject && sourceProject.id === targetProject.id && mr.sourceBranch === mr.targetBranch) {
    throw new InvalidMergeRequestBranches('You can not use same project/branch for source and target');
  }
  if (sourceProject && sourceProject.id !== targetProject.id && !(await inSameForkNetwork(tx, sourceProject.id, targetProject.id))) {
    throw new InvalidMergeRequestBranches('Source project is not a fork of the target project');
  }
  if (mr.opened && sourceProject) {
    const similar = (await findOpenMergeRequests(tx, targetProject.id, sourceProject.id, mr.sourceBranch, mr.targetBranch)).filter((r) => r.id !== self);
    if (similar.length) {
      throw new DuplicateMergeRequest(`Cannot Create: This merge request already exists: ${rubyInspect(similar.map((r) => r.title))}`);
    }
  }
  const errors: Record<string, string[]> = {};
  titleErrors(mr.title, errors);
  if (branches.source && sourceProject && !(await deps.repos.branchExists(fullPathOf(sourceProject), mr.sourceBranch))) {
    errors.source_branch = [`Source branch "${mr.sourceBranch}" does not exist`];
  }
  if (branches.target && !(await deps.repos.branchExists(fullPathOf(targetProject), mr.targetBranch))) {
    errors.target_branch = [`Target branch "${mr.targetBranch}" does not exist`];
  }
  if (Object.keys(errors).length) throw new Invalid(errors);
}

async function projectMilestone(tx: Conn, projectId: number, id: number | null): Promise<number | null> {
  if (id === null) return null;
  const row = await tx('milestones').where({ project_id: projectId, id }).first('id');
  return row ? id : null;
}

function todoTarget(mr: MergeRequestRow): IssuableRef {
  return { type: 'MergeRequest', id: mr.id, projectId: mr.target_project_id };
}

/**
 * Creates an opened merge request in `targetProject` from `sourceProject` (the same or a
 * fork), then computes its diff. The event and the todos are written with the row.
 */
export async function createMergeRequest(
  deps: Deps,
  sourceProject: ProjectWithNamespace,
  targetProject: ProjectWithNamespace,
  author: UserRow,
  input: NewMergeRequest,
  opts: MergeRequestOptions,
): Promise<MergeRequestRow> {
  const created = await deps.db.transaction(async (tx) => {
    await validate(
      deps,
      tx,
      { sourceProject, targetProject, sourceBranch: input.sourceBranch, targetBranch: input.targetBranch, title: input.title, opened: true },
      { source: true, target: true },
    );
    const stamp = now();
    const iid = await nextIid(tx, targetProject.id, 'merge_requests');
    await tx('merge_requests').insert({
      target_project_id: targetProject.id,
      iid,
      source_project_id: sourceProject.id,
      source_branch: input.sourceBranch,
      target_branch: input.targetBranch,
      title: input.title,
      description: input.description ?? null,
      state: 'opened',
      author_id: author.id,
      assignee_id: input.assigneeId ?? null,
      milestone_id: await projectMilestone(tx, targetProject.id, input.milestoneId ?? null),
      merge_status: 'unchecked',
      force_remove_source_branch: input.forceRemoveSourceBranch ?? null,
      allow_maintainer_to_push: input.allowMaintainerToPush ?? null,
      discussion_locked: input.discussionLocked ?? null,
      created_at: stamp,
      updated_at: stamp,
    });
    const mr = (await findMergeRequest(tx, targetProject.id, iid))!;
    if (changesLabels(input)) await applyLabelChange(tx, 'merge_request', mr.id, targetProject.id, input, opts.createLabels);
    await announce(tx, {
      name: 'issuableOpened',
      target: todoTarget(mr),
      actor: author,
      assigneeIds: mr.assignee_id === null ? [] : [mr.assignee_id],
      title: mr.title,
      description: mr.description,
    });
    return mr;
  });
  return refreshQuietly(deps, created);
}

/** The diff refresh after a committed change: a git failure is logged, the change stands. */
async function refreshQuietly(deps: Deps, mr: MergeRequestRow): Promise<MergeRequestRow> {
  try {
    return await refreshDiff(deps, mr);
  } catch (err) {
    deps.log.warn({ err, mergeRequest: mr.id }, 'merge request diff refresh failed');
    return mr;
  }
}

/** Whether a closed merge request may be reopened (MergeRequest#reopenable?). */
async function reopenable(deps: Deps, mr: MergeRequestRow): Promise<boolean> {
  if (mr.state !== 'closed' || mr.source_project_id === null) return false;
  if (mr.source_project_id !== mr.target_project_id && !(await inSameForkNetwork(deps.db, mr.source_project_id, mr.target_project_id))) return false;
  const source = await deps.db('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').where('p.id', mr.source_project_id).first('p.path', 'n.full_path');
  return !!source && deps.repos.branchExists(`${source.full_path}/${source.path}`, mr.source_branch);
}

/**
 * Applies an edit (UpdateService with Close/ReopenService for `stateEvent`); updated_at moves
 * only when something did. A new target branch recomputes the diff.
 */
export async function updateMergeRequest(
  deps: Deps,
  targetProject: ProjectWithNamespace,
  mr: MergeRequestRow,
  user: UserRow,
  input: MergeRequestInput,
  opts: MergeRequestOptions,
): Promise<MergeRequestRow> {
  const canReopen = input.stateEvent === 'reopen' ? await reopenable(deps, mr) : false;
  const targetChanging = input.targetBranch !== undefined && input.targetBranch !== mr.target_branch;
  const updated = await deps.db.transaction(async (tx) => {
    const values: Partial<MergeRequestRow> = {};
    if (input.title !== undefined) values.title = input.title;
    if (input.description !== undefined) values.description = input.description;
    if (input.targetBranch !== undefined) values.target_branch = input.targetBranch;
    if (input.assigneeId !== undefined) values.assignee_id = input.assigneeId;
    if (input.milestoneId !== undefined) values.milestone_id = await projectMilestone(tx, targetProject.id, input.milestoneId);
    if (input.forceRemoveSourceBranch !== undefined) values.force_remove_source_branch = input.forceRemoveSourceBranch;
    if (input.allowMaintainerToPush !== undefined) values.allow_maintainer_to_push = input.allowMaintainerToPush;
    if (input.discussionLocked !== undefined) values.discussion_locked = input.discussionLocked;
    let stateChange: 'closed' | 'reopened' | null = null;
    if (input.stateEvent === 'close' && mr.state === 'opened') {
      stateChange = 'closed';
      Object.assign(values, { state: 'closed', closed_at: now(), closed_by_id: user.id });
    } else if (input.stateEvent === 'reopen' && canReopen) {
      stateChange = 'reopened';
      Object.assign(values, { state: 'opened', closed_at: null, closed_by_id: null, merge_status: 'unchecked' });
    }
    if (targetChanging) values.merge_status = 'unchecked';
    const norm = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
    const changed = (Object.keys(values) as (keyof MergeRequestRow)[]).filter((k) => norm(values[k]) !== norm(mr[k]));
    if (changed.some((k) => k === 'title' || k === 'target_branch') || stateChange === 'reopened') {
      const title = values.title ?? mr.title;
      const targetBranch = values.target_branch ?? mr.target_branch;
      const source = mr.source_project_id === null ? null : ((await loadProjectRow(tx, mr.source_project_id)) ?? null);
      await validate(
        deps,
        tx,
        {
          sourceProject: source,
          targetProject,
          sourceBranch: mr.source_branch,
          targetBranch,
          title: values.title === undefined ? undefined : title,
          opened: (values.state ?? mr.state) === 'opened',
        },
        { source: false, target: targetChanging },
        mr.id,
      );
    }
    let touched = changed.length > 0;
    const labelsBefore = changesLabels(input) ? await labelsOfIssuable(tx, 'MergeRequest', mr.id) : null;
    if (changesLabels(input)) touched = (await applyLabelChange(tx, 'merge_request', mr.id, targetProject.id, input, opts.createLabels)) || touched;
    if (touched)
      await tx('merge_requests')
        .where({ id: mr.id })
        .update({ ...values, updated_at: now() });
    const after = (await findMergeRequest(tx, mr.target_project_id, mr.iid))!;
    const addedAssignee = after.assignee_id !== null && after.assignee_id !== mr.assignee_id ? [after.assignee_id] : [];
    await announce(tx, {
      name: 'issuableChanged',
      target: todoTarget(mr),
      actor: user,
      before: mr,
      labelsBefore,
      state: stateChange,
      touched,
      edit: { addedAssigneeIds: addedAssignee, oldTitle: mr.title, oldDescription: mr.description, title: after.title, description: after.description },
    });
    return after;
  });
  if (targetChanging || (updated.state === 'opened' && mr.state !== 'opened')) return refreshQuietly(deps, updated);
  return updated;
}

async function loadProjectRow(tx: Conn, id: number): Promise<ProjectWithNamespace | undefined> {
  const project = await tx('projects').where({ id }).first();
  if (!project) return undefined;
  const namespace = await tx('namespaces').where({ id: project.namespace_id }).first();
  return { ...project, namespace };
}

/** Issuable::DestroyService: the merge request with everything hanging off it, and its ref. */
export async function deleteMergeRequest(deps: Deps, targetProject: ProjectWithNamespace, mr: MergeRequestRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await deleteIssuableDependents(tx, 'MergeRequest', [mr.id]);
    await tx('merge_requests').where({ id: mr.id }).delete();
  });
  await deleteMergeRequestRefs(gitdirOf(deps.repos, targetProject), mr.iid);
}

/**
 * For the deletion of a project (call inside its transaction, before the project row goes):
 * the dependents of its merge requests, which have no foreign key to cascade on.
 */
export async function deleteProjectMergeRequests(tx: Tx, projectId: number): Promise<void> {
  const ids: { id: number }[] = await tx('merge_requests').where({ target_project_id: projectId }).select('id');
  await deleteIssuableDependents(
    tx,
    'MergeRequest',
    ids.map((r) => r.id),
  );
}
