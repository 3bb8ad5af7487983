// Row types of the foundation tables, as the driver returns them. SQLite answers booleans as
// 0/1: entities convert with flag() (or Boolean()).

export type Flag = boolean | number;

/** A stored boolean column's value as a boolean: SQLite answers 1 or 0, PostgreSQL true or false; null is false. */
export function flag(v: unknown): boolean {
  return v === true || v === 1;
}

export interface UserRow {
  id: number;
  username: string;
  email: string;
  name: string;
  password_digest: string | null;
  state: 'active' | 'blocked';
  admin: Flag;
  bio: string | null;
  location: string | null;
  skype: string;
  linkedin: string;
  twitter: string;
  website_url: string;
  organization: string | null;
  projects_limit: number;
  can_create_group: Flag;
  external: Flag;
  theme_id: number;
  color_scheme_id: number;
  avatar_url: string | null;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  current_sign_in_at: string | null;
  last_activity_on: string | null;
  created_at: string;
  updated_at: string;
}

export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  token_digest: string;
  scopes: string; // JSON array
  impersonation: Flag;
  revoked: Flag;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface NamespaceRow {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  full_path: string;
  full_name: string;
  owner_id: number | null;
  parent_id: number | null;
  description: string;
  visibility_level: number;
  request_access_enabled: Flag;
  lfs_enabled: Flag;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectRow {
  id: number;
  namespace_id: number;
  name: string;
  path: string;
  description: string | null;
  visibility_level: number;
  default_branch: string | null;
  creator_id: number | null;
  archived: Flag;
  issues_enabled: Flag;
  merge_requests_enabled: Flag;
  jobs_enabled: Flag;
  wiki_enabled: Flag;
  snippets_enabled: Flag;
  resolve_outdated_diff_discussions: Flag;
  container_registry_enabled: Flag;
  shared_runners_enabled: Flag;
  public_jobs: Flag;
  lfs_enabled: Flag;
  request_access_enabled: Flag;
  only_allow_merge_if_pipeline_succeeds: Flag;
  only_allow_merge_if_all_discussions_are_resolved: Flag;
  printing_merge_request_link_enabled: Flag;
  merge_method: 'merge' | 'rebase_merge' | 'ff';
  ci_config_path: string | null;
  /** Seconds a CI job may run (GitLab's build_timeout, default 3600). */
  build_timeout: number;
  tag_list: string; // JSON array
  import_url: string | null;
  import_status: string;
  import_error: string | null;
  runners_token: string;
  avatar_url: string | null;
  star_count: number;
  /** Direct forks, kept by triggers (migration 000025). */
  forks_count: number;
  /** Open non-confidential issues, kept by triggers (migration 000025). */
  open_issues_count: number;
  forked_from_id: number | null;
  created_at: string;
  updated_at: string;
  last_activity_at: string;
}

/** A project with its namespace, as most code needs both. */
export interface ProjectWithNamespace extends ProjectRow {
  namespace: NamespaceRow;
}

export interface MemberRow {
  id: number;
  source_type: 'project' | 'group';
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  requested_at: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** One row of `protected_branches`. */
export interface ProtectedBranchRule {
  id: number;
  project_id: number;
  name: string;
  push_access_level: number;
  merge_access_level: number;
  created_at: string;
  updated_at: string;
}
