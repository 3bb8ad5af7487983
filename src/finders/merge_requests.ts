// Merge request lookups (and, with issue #5, the lists).
import type { Conn } from '../store/db.js';

export interface MergeRequestRow {
  id: number;
  target_project_id: number;
  iid: number;
  source_project_id: number | null;
  source_branch: string;
  target_branch: string;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  author_id: number | null;
  assignee_id: number | null;
  milestone_id: number | null;
  merge_status: 'unchecked' | 'can_be_merged' | 'cannot_be_merged';
  merge_status_target_sha: string | null;
  head_sha: string | null;
  start_sha: string | null;
  base_sha: string | null;
  changes_count: number | null;
  merge_commit_sha: string | null;
  merge_when_pipeline_succeeds: boolean | number;
  merge_user_id: number | null;
  should_remove_source_branch: boolean | number | null;
  force_remove_source_branch: boolean | number | null;
  discussion_locked: boolean | number | null;
  allow_maintainer_to_push: boolean | number | null;
  time_estimate: number;
  total_time_spent: number;
  user_notes_count: number;
  merged_by_id: number | null;
  merged_at: string | null;
  closed_by_id: number | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

export async function findMergeRequest(db: Conn, projectId: number, iid: number): Promise<MergeRequestRow | undefined> {
  return db('merge_requests').where({ target_project_id: projectId, iid }).first();
}
