// The CI abilities of GitLab 10.8's ProjectPolicy that the variables, deployments and
// environments APIs ask: `admin_build` (masters: a project's CI variables), `read_deployment`
// and `read_environment` (reporters). Unlike read_build, none is opened to non-members of a
// public project, and a project with its builds (jobs) disabled refuses them all, admins
// included (10.8's `rule { builds_disabled }` prevents beat every enable). The archived rule
// (admin_build refused) is applied by can() before this.
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { MASTER, REPORTER } from './levels.js';
import { maxLevel, type ProjectAccess } from './projects.js';
import { isAdmin } from './users.js';

export type CiProjectAbility = 'admin_build' | 'read_deployment' | 'read_environment';

const MIN_LEVEL: Record<CiProjectAbility, number> = {
  admin_build: MASTER,
  read_deployment: REPORTER,
  read_environment: REPORTER,
};

export function ciProjectCan(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, ability: CiProjectAbility): boolean {
  if (!project.jobs_enabled) return false;
  if (!user || user.state === 'blocked') return false;
  return isAdmin(user) || maxLevel(access) >= MIN_LEVEL[ability];
}
