// The project-level CI abilities of GitLab 10.8's ProjectPolicy, in one place: who reads a
// project's jobs (`read_build`: one job, its trace, its artifacts, the job lists) and its
// pipelines (`read_pipeline`), who runs them (`update_build`, `create_pipeline`,
// `update_pipeline`: developers), and the CI records and settings of reporters and masters
// (`read_deployment`, `read_environment`; `admin_build`, a project's CI variables).
// - Jobs are read by reporters and, only while the project's jobs are public (`public_jobs`,
//   10.8's `public_builds`), by everyone who may read the project — a guest of a private
//   project included (10.8's `rule { public_builds }.enable :read_build`). Otherwise a
//   non-member of a public or internal project gets none: traces and artifacts hold secrets.
// - Pipelines are read by reporters, by every reader of a public or internal project (10.8's
//   public_access), and by guests while jobs are public (`public_builds & guest_access`).
// - Nothing else is opened to non-members.
// - A project with its jobs disabled refuses all of these to everyone, admins included (10.8's
//   `rule { builds_disabled }` prevents beat every enable), but read_pipeline, which that
//   rule does not name.
// Which refs a developer may run is the job's or pipeline's own question (ci_refs.ts); the
// archived rule (every write refused) is applied by can() before this.
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { DEVELOPER, GUEST, MASTER, REPORTER } from './levels.js';
import { canReadProject, maxLevel, openToAll, type ProjectAccess } from './projects.js';
import { isAdmin } from './users.js';

export type CiProjectAbility = 'read_build' | 'read_pipeline' | 'update_build' | 'create_pipeline' | 'update_pipeline' | 'admin_build' | 'read_deployment' | 'read_environment';

const MIN_LEVEL: Record<CiProjectAbility, number> = {
  read_build: REPORTER,
  read_pipeline: REPORTER,
  update_build: DEVELOPER,
  create_pipeline: DEVELOPER,
  update_pipeline: DEVELOPER,
  admin_build: MASTER,
  read_deployment: REPORTER,
  read_environment: REPORTER,
};

/** What a reader below the ability's level still gets: 10.8's public_builds and public_access rules. */
function readBelowLevel(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, ability: CiProjectAbility): boolean {
  const publicJobs = !!project.public_jobs;
  if (ability === 'read_build') return publicJobs && canReadProject(user, project, access);
  if (ability === 'read_pipeline') return openToAll(user, project) || (publicJobs && maxLevel(access) >= GUEST);
  return false;
}

export function ciProjectCan(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, ability: CiProjectAbility): boolean {
  if (user && user.state === 'blocked') return false;
  if (!project.jobs_enabled && ability !== 'read_pipeline') return false;
  if (isAdmin(user) || maxLevel(access) >= MIN_LEVEL[ability]) return true;
  return readBelowLevel(user, project, access, ability);
}
