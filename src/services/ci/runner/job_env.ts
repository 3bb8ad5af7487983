// The environment a CI job's bash gets, as GitLab 10.8's Ci::Build#variables orders it:
// GitLab's predefined variables, then the .gitlab-ci.yml variables (global, then the job's),
// then the secret variables of the groups and the project (variablesForJob; protected ones only
// on a protected branch or tag). It starts from a minimal environment (PATH, HOME, LANG) so
// nothing of the server's own (tokens, database URLs) reaches a job.
import type { BuildRow, PipelineRow } from '../../../store/ci_rows.js';
import type { ProjectWithNamespace, UserRow } from '../../../store/rows.js';
import type { JobVariable } from '../../../finders/ci_variables.js';

/** GitLab's CI_COMMIT_REF_SLUG: lower case, anything but a-z0-9 → '-', at most 63, no edge '-'. */
function refSlug(ref: string): string {
  let slug = '';
  for (const c of ref.toLowerCase()) slug += /[a-z0-9]/.test(c) ? c : '-';
  slug = slug.slice(0, 63);
  let start = 0;
  let end = slug.length;
  while (start < end && slug[start] === '-') start++;
  while (end > start && slug[end - 1] === '-') end--;
  return slug.slice(start, end);
}

export interface JobFacts {
  build: BuildRow;
  pipeline: PipelineRow;
  project: ProjectWithNamespace;
  user: UserRow | undefined;
  token: string;
  projectDir: string;
  home: string;
  externalUrl: string;
  secrets: JobVariable[];
}

/** The variables a job sees, in override order (later wins). */
export function jobVariables(f: JobFacts): Record<string, string> {
  const fullPath = `${f.project.namespace.full_path ?? f.project.namespace.path}/${f.project.path}`;
  const url = new URL(f.externalUrl);
  const repoUrl = `${url.protocol}//gitlab-ci-token:${f.token}@${url.host}${url.pathname.replace(/\/$/, '')}/${fullPath}.git`;
  const vars: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER: 'yes',
    CI_SERVER_NAME: 'GitLab',
    CI_SERVER_VERSION: '10.8.7',
    CI_SERVER_REVISION: 'wharf',
    CI_JOB_ID: String(f.build.id),
    CI_JOB_NAME: f.build.name,
    CI_JOB_STAGE: f.build.stage,
    CI_JOB_TOKEN: f.token,
    CI_BUILD_ID: String(f.build.id),
    CI_BUILD_NAME: f.build.name,
    CI_BUILD_STAGE: f.build.stage,
    CI_BUILD_TOKEN: f.token,
    CI_COMMIT_SHA: f.pipeline.sha,
    CI_COMMIT_BEFORE_SHA: f.pipeline.before_sha ?? '0000000000000000000000000000000000000000',
    CI_COMMIT_REF_NAME: f.build.ref,
    CI_COMMIT_REF_SLUG: refSlug(f.build.ref),
    CI_BUILD_REF: f.pipeline.sha,
    CI_BUILD_REF_NAME: f.build.ref,
    CI_PIPELINE_ID: String(f.pipeline.id),
    CI_PIPELINE_SOURCE: f.pipeline.source,
    CI_PROJECT_ID: String(f.project.id),
    CI_PROJECT_NAME: f.project.path,
    CI_PROJECT_PATH: fullPath,
    CI_PROJECT_PATH_SLUG: refSlug(fullPath),
    CI_PROJECT_NAMESPACE: f.project.namespace.full_path ?? f.project.namespace.path,
    CI_PROJECT_URL: `${f.externalUrl}/${fullPath}`,
    CI_PROJECT_VISIBILITY: visibilityName(f.project.visibility_level),
    CI_PROJECT_DIR: f.projectDir,
    CI_REPOSITORY_URL: repoUrl,
    CI_REGISTRY: '',
    CI_RUNNER_ID: '0',
    CI_RUNNER_DESCRIPTION: 'wharf shell runner',
    CI_RUNNER_TAGS: '',
    CI_CONFIG_PATH: f.project.ci_config_path || '.gitlab-ci.yml',
  };
  if (f.build.tag) {
    vars.CI_COMMIT_TAG = f.build.ref;
    vars.CI_BUILD_TAG = f.build.ref;
  }
  if (f.build.environment) vars.CI_ENVIRONMENT_NAME = f.build.environment;
  if (f.build.when === 'manual') vars.CI_JOB_MANUAL = 'true'; // Ci::Build#variables: `action?`
  if (f.user) {
    vars.GITLAB_USER_ID = String(f.user.id);
    vars.GITLAB_USER_LOGIN = f.user.username;
    vars.GITLAB_USER_NAME = f.user.name;
    vars.GITLAB_USER_EMAIL = f.user.email;
  }
  const yamlVars = parseJson<Record<string, string>>(f.build.yaml_variables, {});
  for (const [k, v] of Object.entries(yamlVars)) vars[k] = String(v);
  for (const s of f.secrets) vars[s.key] = s.value;
  return vars;
}

/** The process environment of a job: the minimal base, then its variables. */
export function jobProcessEnv(f: JobFacts): Record<string, string> {
  return {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: f.home,
    LANG: 'C.UTF-8',
    ...jobVariables(f),
  };
}

function visibilityName(level: number): string {
  return level >= 20 ? 'public' : level >= 10 ? 'internal' : 'private';
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
