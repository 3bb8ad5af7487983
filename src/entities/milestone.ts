// GitLab 10.8's Milestone entity. 10.8 has no web_url here (later versions add it, and
// 10.8's own schema, public_api/v4/milestones.json, forbids extra keys); group_id is only
// exposed for group milestones, which Wharf does not have yet.
import type { MilestoneRow } from '../store/issuable_rows.js';

export interface MilestoneEntity {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: string;
  created_at: string;
  updated_at: string;
  due_date: string | null;
  start_date: string | null;
}

export function milestoneEntity(row: MilestoneRow): MilestoneEntity {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    due_date: row.due_date,
    start_date: row.start_date,
  };
}
