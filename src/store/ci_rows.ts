// The stored rows of CI (migrations 20261122000038 and 41): pipelines, their jobs (ci_builds,
// which also hold external commit statuses), variables, environments and deployments.
import type { CiStatus } from './ci_statuses.js';
import type { Flag } from './rows.js';

export interface PipelineRow {
  id: number;
  project_id: number;
  ref: string;
  sha: string;
  before_sha: string | null;
  tag: Flag;
  yaml_errors: string | null;
  status: CiStatus;
  source: string;
  user_id: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  duration: number | null;
  coverage: string | null;
}

export interface BuildRow {
  id: number;
  project_id: number;
  pipeline_id: number;
  name: string;
  stage: string;
  stage_idx: number;
  status: CiStatus;
  when: string;
  allow_failure: Flag;
  retried: Flag;
  ref: string;
  tag: Flag;
  options: string;
  yaml_variables: string;
  tag_list: string;
  environment: string | null;
  coverage_regex: string | null;
  coverage: number | null;
  user_id: number | null;
  token_digest: string | null;
  created_at: string;
  updated_at: string;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  artifacts_file: string | null;
  artifacts_size: number | null;
  artifacts_expire_at: string | null;
  /** 'Ci::Build' (run by a runner) or 'GenericCommitStatus' (posted by external CI). */
  type: string;
  description: string | null;
  target_url: string | null;
  /** The built-in runner process holding a running job, and until when (migration 42). */
  runner_owner?: string | null;
  lease_until?: string | null;
}

/** A project's (ci_variables) or a group's (ci_group_variables, `group_id`) CI variable. */
export interface VariableRow {
  id: number;
  key: string;
  value: string;
  protected: Flag;
}

export interface EnvironmentRow {
  id: number;
  project_id: number;
  name: string;
  slug: string;
  external_url: string | null;
  state: string;
  created_at: string;
  updated_at: string;
}

export interface DeploymentRow {
  id: number;
  iid: number;
  project_id: number;
  environment_id: number;
  ref: string;
  tag: Flag;
  sha: string;
  user_id: number | null;
  deployable_id: number | null;
  created_at: string;
  updated_at: string;
}
