// GitLab 10.8's Label entity (LabelBasic's id, name, color, description, plus the counts,
// the project's priority and whether the current user is subscribed).
import type { LabelCounts, LabelRow } from '../store/issuable_rows.js';

export interface LabelEntity extends LabelCounts {
  id: number;
  name: string;
  color: string;
  description: string | null;
  priority: number | null;
  subscribed: boolean;
}

export function labelEntity(row: LabelRow, counts: LabelCounts, subscribed: boolean): LabelEntity {
  return {
    id: row.id,
    name: row.title,
    color: row.color,
    description: row.description,
    open_issues_count: counts.open_issues_count,
    closed_issues_count: counts.closed_issues_count,
    open_merge_requests_count: counts.open_merge_requests_count,
    priority: row.priority,
    subscribed,
  };
}
