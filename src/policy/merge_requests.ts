// Who may see and do what with merge requests (GitLab 10.8's ProjectPolicy and
// MergeRequestPolicy). The only place merge request permissions are decided.
// - read: admins; everyone who reads a public project (signed-in users: internal ones);
//   reporters and up on private projects (guests of a private project do not), while the
//   project's merge requests are enabled.
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { INTERNAL, PUBLIC, REPORTER } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { maxLevel, type ProjectAccess } from './projects.js';

export function canReadMergeRequests(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (user && user.state === 'blocked') return false;
  if (!project.merge_requests_enabled) return false;
  if (isAdmin(user)) return true;
  if (project.visibility_level >= PUBLIC) return true;
  if (project.visibility_level >= INTERNAL && isSignedInRegular(user)) return true;
  return maxLevel(access) >= REPORTER;
}
