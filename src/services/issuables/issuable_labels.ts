// Labels of issues and merge requests (GitLab 10.8's IssuableBaseService#find_or_create_label_ids
// and the label_links join): the `labels` parameter names labels by title, comma-separated;
// unknown titles become new project labels (default colour) only when the user may create
// labels, and an invalid new title is dropped, as Labels::FindOrCreateService returns nil.
// Later GitLab's `add_labels` and `remove_labels` change the current set instead (its
// IssuableBaseService#process_label_ids): what they name is added to or taken from the
// labels the issuable has, `labels` then being ignored; a title to remove is only looked up.
import type { Tx } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import { now } from '../../store/time.js';
import { DEFAULT_COLOR, sanitizeTitle } from '../labels/labels.js';

/** label_links.target_type of each issuable kind. */
export type LabelTarget = 'issue' | 'merge_request';

const MAX_TITLE = 255;

/** The ids of the labels titled in `list`, created (default colour) when allowed. */
async function findOrCreateLabelIds(tx: Tx, projectId: number, list: string, create: boolean): Promise<number[]> {
  const ids: number[] = [];
  for (const raw of list.split(',')) {
    const title = raw.trim();
    if (title === '') continue;
    const found = await tx('labels').where({ project_id: projectId, title }).first('id');
    if (found) {
      ids.push(found.id);
      continue;
    }
    if (!create) continue;
    const clean = sanitizeTitle(title).trim();
    if (clean === '' || clean.length > MAX_TITLE) continue;
    const existing = await tx('labels').where({ project_id: projectId, title: clean }).first('id');
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const stamp = now();
    const id = await insertReturningId(tx, 'labels', {
      project_id: projectId,
      title: clean,
      color: DEFAULT_COLOR,
      description: null,
      priority: null,
      created_at: stamp,
      updated_at: stamp,
    });
    ids.push(id);
  }
  return [...new Set(ids)];
}

/** Makes the target's labels exactly `ids`; whether anything changed. */
async function setLabelLinks(tx: Tx, type: LabelTarget, targetId: number, ids: number[]): Promise<boolean> {
  const current: { label_id: number }[] = await tx('label_links').where({ target_type: type, target_id: targetId }).select('label_id');
  const before = new Set(current.map((r) => r.label_id));
  const after = new Set(ids);
  const removed = [...before].filter((id) => !after.has(id));
  const added = [...after].filter((id) => !before.has(id));
  if (removed.length) await tx('label_links').where({ target_type: type, target_id: targetId }).whereIn('label_id', removed).delete();
  if (added.length) await tx('label_links').insert(added.map((label_id) => ({ target_type: type, target_id: targetId, label_id })));
  return removed.length + added.length > 0;
}

/** Resolves `list` and applies it: the helper both create and update use. */
async function applyLabels(tx: Tx, type: LabelTarget, targetId: number, projectId: number, list: string, create: boolean): Promise<boolean> {
  return setLabelLinks(tx, type, targetId, await findOrCreateLabelIds(tx, projectId, list, create));
}

/** What an edit asks of the labels: `labels` replaces them, `add`/`remove` change them. */
export interface LabelChange {
  labels?: string;
  addLabels?: string[];
  removeLabels?: string[];
}

/** Whether the edit names labels at all (the hooks then record the labels before it). */
export function changesLabels(change: LabelChange): boolean {
  return change.labels !== undefined || change.addLabels !== undefined || change.removeLabels !== undefined;
}

/**
 * process_label_ids: when `add`/`remove` resolve to some label, the current labels (none on
 * create) plus those added less those removed; otherwise `labels`, when given, replaces them.
 * Whether anything changed.
 */
export async function applyLabelChange(tx: Tx, type: LabelTarget, targetId: number, projectId: number, change: LabelChange, create: boolean): Promise<boolean> {
  const add = change.addLabels?.length ? await findOrCreateLabelIds(tx, projectId, change.addLabels.join(','), create) : [];
  const remove = change.removeLabels?.length ? await findOrCreateLabelIds(tx, projectId, change.removeLabels.join(','), false) : [];
  if (!add.length && !remove.length) {
    return change.labels === undefined ? false : applyLabels(tx, type, targetId, projectId, change.labels, create);
  }
  const current: { label_id: number }[] = await tx('label_links').where({ target_type: type, target_id: targetId }).select('label_id');
  const gone = new Set(remove);
  const ids = [...new Set([...current.map((r) => r.label_id), ...add])].filter((id) => !gone.has(id));
  return setLabelLinks(tx, type, targetId, ids);
}
