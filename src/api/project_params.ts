// Parameter schemas shared by the project routes (create, create-for-user, update, lists).
import { p } from '../http/params.js';
import { ACCESS_LEVELS, VISIBILITIES } from '../policy/levels.js';
import { PROJECT_ORDERS } from '../finders/projects.js';
import type { ProjectSettings } from '../services/projects/projects.js';

export const settingsSchema = {
  description: p.string().nullable(), // null clears it
  ci_config_path: p.string(),
  issues_enabled: p.boolean(),
  merge_requests_enabled: p.boolean(),
  wiki_enabled: p.boolean(),
  jobs_enabled: p.boolean(),
  snippets_enabled: p.boolean(),
  shared_runners_enabled: p.boolean(),
  resolve_outdated_diff_discussions: p.boolean(),
  container_registry_enabled: p.boolean(),
  lfs_enabled: p.boolean(),
  visibility: p.string().values(VISIBILITIES),
  public_builds: p.boolean(),
  public_jobs: p.boolean(),
  request_access_enabled: p.boolean(),
  only_allow_merge_if_pipeline_succeeds: p.boolean(),
  only_allow_merge_if_all_discussions_are_resolved: p.boolean(),
  tag_list: p.array(p.string()),
  printing_merge_request_link_enabled: p.boolean(),
  merge_method: p.string().values(['ff', 'rebase_merge', 'merge']),
};

type SettingsInput = { [K in keyof typeof settingsSchema]?: unknown };

/** Parsed settings → the service's names (`public_builds` is the old name of `public_jobs`). */
export function toSettings(values: SettingsInput): ProjectSettings {
  const { public_builds: publicBuilds, public_jobs: publicJobs, ...rest } = values;
  const out: Record<string, unknown> = {};
  // The avatar file is stored apart (api/avatar_params.ts), never a column.
  for (const [k, v] of Object.entries(rest)) if (v !== undefined && k !== 'avatar') out[k] = v;
  const pj = publicJobs ?? publicBuilds;
  if (pj !== undefined) out.public_jobs = pj;
  return out as ProjectSettings;
}

/** The update route needs at least one of these (GitLab's list, plus `public_jobs`). */
export const UPDATE_ATTRIBUTES = [
  'jobs_enabled',
  'resolve_outdated_diff_discussions',
  'ci_config_path',
  'container_registry_enabled',
  'default_branch',
  'description',
  'issues_enabled',
  'lfs_enabled',
  'merge_requests_enabled',
  'merge_method',
  'name',
  'only_allow_merge_if_all_discussions_are_resolved',
  'only_allow_merge_if_pipeline_succeeds',
  'path',
  'printing_merge_request_link_enabled',
  'public_builds',
  'request_access_enabled',
  'shared_runners_enabled',
  'snippets_enabled',
  'tag_list',
  'visibility',
  'wiki_enabled',
  'public_jobs',
];

export const listSchema = {
  archived: p.boolean().default(false),
  visibility: p.string().values(VISIBILITIES),
  order_by: p.string().values(PROJECT_ORDERS).default('created_at'),
  sort: p.string().values(['asc', 'desc']).default('desc'),
  search: p.anyString(),
  simple: p.boolean().default(false),
  owned: p.boolean().default(false),
  membership: p.boolean().default(false),
  starred: p.boolean().default(false),
  statistics: p.boolean().default(false),
  with_issues_enabled: p.boolean().default(false),
  with_merge_requests_enabled: p.boolean().default(false),
  with_custom_attributes: p.boolean().default(false),
  custom_attributes: p.hash(),
  // GitLab 11.2's: only the projects the user is a member of at this level or more.
  min_access_level: p.integer().values(ACCESS_LEVELS),
};

/** GitLab 11.6's parameters of a group's list: its shared projects, its subgroups' projects. */
export const groupListSchema = {
  ...listSchema,
  with_shared: p.boolean().default(true),
  include_subgroups: p.boolean().default(false),
};
