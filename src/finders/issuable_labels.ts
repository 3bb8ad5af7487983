// The labels of one issue or merge request, ordered by title (GitLab 10.8's Issuable#labels as
// the hook payloads show them): read before a change (the hooks' `changes.labels`) and after it.
import type { Conn } from '../store/db.js';
import type { LabelRow } from '../store/issuable_rows.js';

export async function labelsOfIssuable(db: Conn, type: 'Issue' | 'MergeRequest', id: number): Promise<LabelRow[]> {
  const target = type === 'Issue' ? 'issue' : 'merge_request';
  return db('label_links as ll').join('labels as l', 'l.id', 'll.label_id').where({ 'll.target_type': target, 'll.target_id': id }).orderBy('l.title').select('l.*');
}
