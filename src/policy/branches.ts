// Branch protection: who may push to, merge into or delete a branch.
//
// Wharf has no protected branches yet, so every branch is unprotected: developers (push_code)
// may push to and delete any branch, and the Branch entity shows `protected: false`,
// `developers_can_push: false`, `developers_can_merge: false` (what GitLab 10.8 shows for a
// branch no rule matches). The protected-branches issue fills these in: the project's rules
// (exact names and `*` wildcards, §13 of the behaviour notes), and the instance's
// default_branch_protection, under which every branch of an empty repository is protected.
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { can, type ProjectAccess } from './projects.js';

/** Whether any protected-branch rule of the project matches `branch`. */
export async function isProtected(_db: Conn, _project: ProjectWithNamespace, _branch: string): Promise<boolean> {
  return false; // no protected branches yet
}

/** GitLab's `protected_branches.developers_can?(:push|:merge, name)`: false when no rule matches. */
export async function developersCan(_db: Conn, _project: ProjectWithNamespace, _branch: string, _action: 'push' | 'merge'): Promise<boolean> {
  return false; // no protected branches yet
}

/** May the user push commits to (or create, or delete) `branch`? */
export async function canPushToBranch(
  db: Conn,
  user: UserRow | null,
  project: ProjectWithNamespace,
  access: ProjectAccess,
  branch: string,
): Promise<boolean> {
  if (!can(user, project, access, 'push_code')) return false;
  return !(await isProtected(db, project, branch));
}
