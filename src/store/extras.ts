// What a page shows beyond its own rows, as the finders load it (one query per kind for a
// whole page) and the presenters of src/entities/ render it. The types live in store/ so that
// the entities, which are pure, name them without importing a finder.
import type { NamespaceRow, ProjectRow, UserRow } from './rows.js';
import type { MilestoneRow, NoteRow } from './issuable_rows.js';

export interface Votes {
  upvotes: number;
  downvotes: number;
}

/** What a page of issues shows beyond its own rows, each kind loaded in one query. */
export interface IssueExtras {
  users: Map<number, UserRow>;
  assignees: Map<number, number[]>;
  milestones: Map<number, MilestoneRow>;
  labels: Map<number, string[]>;
  projectPaths: Map<number, string>;
  votes: Map<number, Votes>;
}

/** What a page of merge requests shows beyond its own rows, each kind loaded in one query. */
export interface MergeRequestExtras {
  users: Map<number, UserRow>;
  milestones: Map<number, MilestoneRow>;
  labels: Map<number, string[]>;
  votes: Map<number, Votes>;
  /** Full paths of the target and source projects. */
  projectPaths: Map<number, string>;
  projects: Map<number, { visibilityLevel: number; jobsEnabled: boolean }>;
}

/** A push event's payload (push_event_payloads, GitLab 10.8's PushEventPayload), one per moved ref. */
export interface PushPayload {
  commit_count: number;
  action: 'created' | 'removed' | 'pushed';
  ref_type: 'branch' | 'tag';
  commit_from: string | null;
  commit_to: string | null;
  ref: string;
  commit_title: string | null;
}

export interface PushPayloadRow extends PushPayload {
  event_id: number;
}

export interface EventTarget {
  iid: number | null;
  title: string | null;
}

export interface EventExtras {
  users: Map<number, UserRow>;
  payloads: Map<number, PushPayloadRow>;
  /** By `${target_type}:${target_id}`. */
  targets: Map<string, EventTarget>;
  notes: Map<number, NoteRow>;
  /** The iids of the notes' issues and merge requests, by `${noteable_type}:${noteable_id}`. */
  noteables: Map<string, EventTarget>;
}

export interface GroupStatistics {
  storage_size: number;
  repository_size: number;
  lfs_objects_size: number;
  job_artifacts_size: number;
}

/** The fields of the forked-from project that BasicProjectDetails shows. */
export type ForkedFromProject = Pick<
  ProjectRow,
  'id' | 'description' | 'name' | 'path' | 'created_at' | 'default_branch' | 'tag_list' | 'avatar_url' | 'star_count' | 'forks_count' | 'last_activity_at'
> & { namespace: Pick<NamespaceRow, 'full_path' | 'full_name'> };

/** The fields of a personal project's owner that the answer shows. */
export type ProjectOwner = Pick<UserRow, 'id' | 'name' | 'username' | 'state' | 'avatar_url' | 'email' | 'created_at'>;

export interface SharedGroup {
  group_id: number;
  group_name: string;
  group_access_level: number;
}

export interface ProjectStatisticsRow {
  commit_count: number;
  repository_size: number;
  lfs_objects_size: number;
  job_artifacts_size: number;
}

export interface ProjectExtras {
  /** Owners of personal namespaces, by user id. */
  owners: Map<number, ProjectOwner>;
  /** Forked-from projects, by their id. */
  forkedFrom: Map<number, ForkedFromProject>;
  /** Group shares, by project id (absent: none). */
  links: Map<number, SharedGroup[]>;
  /** By project id, when statistics were asked for. */
  stats: Map<number, ProjectStatisticsRow>;
  /** By project id, when custom attributes were asked for. */
  attributes: Map<number, { key: string; value: string }[]>;
  /** The caller's project membership level, by project id. */
  projectAccess: Map<number, number>;
  /** The caller's membership level of the project's group, by namespace id. */
  groupAccess: Map<number, number>;
}

/** An external identity as UserPublic shows it. */
export interface IdentityView {
  provider: string;
  extern_uid: string | null;
}
