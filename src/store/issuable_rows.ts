// Row types of the issuable tables (issues, merge requests, milestones, labels, notes, award
// emoji), as the driver returns them, and the codes their polymorphic columns store. Every
// layer may import them (ARCHITECTURE.md: row types live in store/), so finders load them,
// services write them and entities present them without importing one another.

import type { AnyNoteableType, NoteType } from './note_kinds.js';

export type AwardableType = 'Issue' | 'MergeRequest' | 'Note' | 'Snippet';

export interface AwardRow {
  id: number;
  awardable_type: AwardableType;
  awardable_id: number;
  user_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

/** The noteables with a row of their own, a `user_notes_count` and to-dos. */
export type NoteableType = 'Issue' | 'MergeRequest';

export interface NoteRow {
  id: number;
  project_id: number;
  noteable_type: AnyNoteableType;
  /** 0 for a note on a commit (GitLab's is empty; the commit is `commit_id`). */
  noteable_id: number;
  author_id: number | null;
  body: string;
  system: boolean | number;
  updated_by_id: number | null;
  created_at: string;
  updated_at: string;
  type: NoteType | null;
  discussion_id: string;
  /** A DiffNote's position (JSON of GitLab's Position#to_h); a LegacyDiffNote's file line. */
  position: string | null;
  line_code: string | null;
  commit_id: string | null;
  resolved_at: string | null;
  resolved_by_id: number | null;
}

export interface LabelRow {
  id: number;
  project_id: number;
  title: string;
  color: string;
  description: string | null;
  priority: number | null;
  created_at: string;
  updated_at: string;
}

export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

export interface IssueRow {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  author_id: number | null;
  confidential: boolean | number;
  discussion_locked: boolean | number | null;
  due_date: string | null;
  milestone_id: number | null;
  closed_at: string | null;
  closed_by_id: number | null;
  time_estimate: number;
  total_time_spent: number;
  user_notes_count: number;
  created_at: string;
  updated_at: string;
}

export interface MilestoneRow {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  due_date: string | null;
  start_date: string | null;
  created_at: string;
  updated_at: string;
}

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
  /** The stored diff hit GitLab's limits (migration 20261122000010). */
  changes_overflow?: boolean | number;
  merge_commit_sha: string | null;
  merge_when_pipeline_succeeds: boolean | number;
  merge_user_id: number | null;
  should_remove_source_branch: boolean | number | null;
  /** merge_params' commit message for the automatic merge (migration 20261122000048). */
  merge_commit_message?: string | null;
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
