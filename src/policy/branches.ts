// Branch protection: who may push to, merge into or delete a branch (GitLab 10.8's
// ProtectedBranch, ProtectedRefMatcher, ProtectedBranchAccess, Gitlab::UserAccess and
// Gitlab::Checks::ChangeAccess). A branch is protected when any rule of its project matches
// it (exact name, or a `*` wildcard), or, under default branch protection, when the
// repository is still empty. Access is granted when ANY matching rule grants it.
//
// Emptiness is passed in by the caller (it knows the refs it is about to change); the
// Branch entity only ever asks about existing branches, so there it defaults to false.
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow, ProtectedBranchRule } from '../store/rows.js';
import { projectCan, maxLevel, type ProjectAccess } from './projects.js';
import { DEVELOPER, MASTER, NO_ACCESS } from './levels.js';
import { isAdmin } from './users.js';
import { refusedOnArchived } from './archived.js';

// GitLab's `default_branch_protection` values (Gitlab::Access::PROTECTION_*).
export const PROTECTION_NONE = 0;
export const PROTECTION_DEV_CAN_PUSH = 1;
const PROTECTION_FULL = 2;
export const PROTECTION_DEV_CAN_MERGE = 3;

/**
 * GitLab's default for the `default_branch_protection` setting (2, fully protected). The
 * instance's value is the setting (services/settings/application_settings.ts); callers that decide
 * about an empty repository pass it in.
 */
const DEFAULT_BRANCH_PROTECTION: number = PROTECTION_FULL;

/** The levels a rule may hold (ProtectedRefAccess::ALLOWED_ACCESS_LEVELS), in GitLab's order. */
export const ALLOWED_ACCESS_LEVELS = [MASTER, DEVELOPER, NO_ACCESS] as const;

export type BranchAction = 'push' | 'merge';

// GitLab's ChangeAccess messages, exact.
const PUSH_CODE = 'You are not allowed to push code to this project.';
const DELETE_DEFAULT_BRANCH = 'The default branch of a project cannot be deleted.';
const FORCE_PUSH_PROTECTED = 'You are not allowed to force push code to a protected branch on this project.';
const NON_MASTER_DELETE_PROTECTED = 'You are not allowed to delete protected branches from this project. Only a project master or owner can delete a protected branch.';
const NON_WEB_DELETE_PROTECTED = 'You can only delete protected branches using the web interface.';
export const PUSH_PROTECTED = 'You are not allowed to push code to protected branches on this project.';
const CHANGE_EXISTING_TAGS = 'You are not allowed to change existing tags on this project.';

/** Under protection 2 or 3 every branch of an empty repository is protected (1 only protects after the first push). */
function defaultBranchProtected(protection = DEFAULT_BRANCH_PROTECTION): boolean {
  return protection === PROTECTION_FULL || protection === PROTECTION_DEV_CAN_MERGE;
}

/**
 * Whether `text` matches `pattern`, `*` standing for any run of characters (slashes too).
 * Two pointers, going back only to the last `*`: at most length × length steps. The regex
 * this replaces (each `*` a lazy `.*?`) backtracked exponentially: a rule `a*a*…a*b` of 30
 * stars held the event loop for minutes on a 60-character branch name.
 */
function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1; // the last `*` seen, and where in `text` it began to match
  let from = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      from = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++from;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** ProtectedRefMatcher#matches?: exact, or `*` as "anything" (slashes too), anchored. */
export function ruleMatches(ruleName: string, branch: string): boolean {
  if (ruleName.trim() === '') return false;
  if (ruleName === branch) return true;
  if (!ruleName.includes('*')) return false;
  return wildcardMatch(ruleName, branch);
}

/** A project's rules, loaded once, answering every question without further queries. */
export class BranchRules {
  constructor(
    readonly rules: readonly ProtectedBranchRule[],
    /** The repository has no branch yet. */
    readonly emptyRepo = false,
    readonly protection = DEFAULT_BRANCH_PROTECTION,
  ) {}

  static async load(db: Conn, project: Pick<ProjectWithNamespace, 'id'>, emptyRepo = false, protection = DEFAULT_BRANCH_PROTECTION): Promise<BranchRules> {
    const rules: ProtectedBranchRule[] = await db('protected_branches').where({ project_id: project.id }).orderBy('id');
    return new BranchRules(rules, emptyRepo, protection);
  }

  matching(branch: string): ProtectedBranchRule[] {
    return this.rules.filter((r) => ruleMatches(r.name, branch));
  }

  /** ProtectedBranch.protected? */
  isProtected(branch: string): boolean {
    if (this.emptyRepo && defaultBranchProtected(this.protection)) return true;
    return this.matching(branch).length > 0;
  }

  /** `protected_branches.developers_can?`: a matching rule lets developers (level 30) do it. */
  developersCan(branch: string, action: BranchAction): boolean {
    return this.matching(branch).some((r) => levelOf(r, action) === DEVELOPER);
  }

  /** ProtectedBranch.protected_ref_accessible_to?: the user passes some matching rule. */
  accessibleTo(user: UserRow, project: ProjectWithNamespace, access: ProjectAccess, branch: string, action: BranchAction): boolean {
    // Masters, owners and admins may create the first branch of a protected empty repository.
    if (this.emptyRepo && defaultBranchProtected(this.protection) && (isAdmin(user) || maxLevel(access) > DEVELOPER)) return true;
    return this.matching(branch).some((r) => passes(user, project, access, levelOf(r, action)));
  }

  /** Gitlab::UserAccess#can_push_to_branch? */
  canPush(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, branch: string): boolean {
    if (!user || !projectCan(user, project, access, 'push_code')) return false;
    return !this.isProtected(branch) || this.accessibleTo(user, project, access, branch, 'push');
  }

  /** Gitlab::UserAccess#can_merge_to_branch? */
  canMerge(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, branch: string): boolean {
    if (!user || user.state === 'blocked') return false;
    // Merging writes the branch: an archived project refuses it as it refuses a push (policy/archived.ts).
    if (refusedOnArchived(project, 'push_code')) return false;
    if (!this.isProtected(branch)) return projectCan(user, project, access, 'push_code');
    return this.accessibleTo(user, project, access, branch, 'merge');
  }

  /** Gitlab::UserAccess#can_delete_branch?: a protected branch needs a master (push_to_delete_protected_branch). */
  canDelete(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, branch: string): boolean {
    if (!user) return false;
    return projectCan(user, project, access, this.isProtected(branch) ? 'push_to_delete_protected_branch' : 'push_code');
  }
}

function levelOf(rule: ProtectedBranchRule, action: BranchAction): number {
  return action === 'push' ? rule.push_access_level : rule.merge_access_level;
}

/** ProtectedBranchAccess#check_access: "No one" stops admins too; otherwise admins pass. */
function passes(user: UserRow, project: ProjectWithNamespace, access: ProjectAccess, level: number): boolean {
  if (level === NO_ACCESS) return false;
  if (isAdmin(user)) return true;
  return projectCan(user, project, access, 'push_code') && maxLevel(access) >= level;
}

/** Whether any protected-branch rule of the project matches `branch` (an existing branch). */
export async function isProtected(db: Conn, project: ProjectWithNamespace, branch: string): Promise<boolean> {
  return (await BranchRules.load(db, project)).isProtected(branch);
}

/**
 * May the user push commits to (or create) `branch`? `emptyRepo`: the repository has no
 * branch yet, which under default branch protection (`protection`, the instance's setting)
 * makes every branch protected.
 */
export async function canPushToBranch(
  db: Conn,
  user: UserRow | null,
  project: ProjectWithNamespace,
  access: ProjectAccess,
  branch: string,
  emptyRepo: boolean,
  protection = DEFAULT_BRANCH_PROTECTION,
): Promise<boolean> {
  return (await BranchRules.load(db, project, emptyRepo, protection)).canPush(user, project, access, branch);
}

/** One ref change of a push (or of an API write). */
export interface RefUpdate {
  /** The full ref name: `refs/heads/<branch>` or `refs/tags/<tag>`. */
  ref: string;
  /** The ref's value before; null (or all zeros) when it is being created. */
  oldOid: string | null;
  /** The ref's value after; null (or all zeros) when it is being deleted. */
  newOid: string | null;
  /** The new commit does not descend from the old one (the caller asks git). */
  isForce: boolean;
  /** The repository had no branch before this push. */
  emptyRepo: boolean;
  /** The instance's default branch protection (the setting), which matters for an empty repository. */
  protection?: number;
  /** The change comes from the API, GitLab's `web` protocol, where masters may delete protected branches. */
  web?: boolean;
}

export type RefCheck = { allowed: true } | { allowed: false; message: string };

const blank = (oid: string | null) => oid === null || /^0+$/.test(oid);

/**
 * Gitlab::Checks::ChangeAccess for one ref change, with its messages: push rights, then the
 * default branch, then protection (force push and deletion refused for everyone over git;
 * pushes need a matching rule that lets the user in), then existing tags (masters only).
 */
export async function checkRefUpdate(db: Conn, user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, update: RefUpdate): Promise<RefCheck> {
  const deny = (message: string): RefCheck => ({ allowed: false, message });
  const branch = update.ref.startsWith('refs/heads/') ? update.ref.slice('refs/heads/'.length) : null;
  const rules = await BranchRules.load(db, project, update.emptyRepo, update.protection);
  const pushCode = !!user && projectCan(user, project, access, 'push_code');
  if (!pushCode && !(branch !== null && rules.canPush(user, project, access, branch))) return deny(PUSH_CODE);

  if (branch === null) {
    if (update.ref.startsWith('refs/tags/') && !blank(update.oldOid) && !projectCan(user, project, access, 'admin_project')) {
      return deny(CHANGE_EXISTING_TAGS);
    }
    return { allowed: true };
  }

  const deletion = blank(update.newOid);
  if (deletion && branch === project.default_branch) return deny(DELETE_DEFAULT_BRANCH);
  if (!rules.isProtected(branch)) return { allowed: true };

  // ForcePush.force_push? is false for an empty repository, a creation and a deletion.
  if (update.isForce && !update.emptyRepo && !blank(update.oldOid) && !deletion) return deny(FORCE_PUSH_PROTECTED);
  if (deletion) {
    if (!rules.canDelete(user, project, access, branch)) return deny(NON_MASTER_DELETE_PROTECTED);
    return update.web ? { allowed: true } : deny(NON_WEB_DELETE_PROTECTED);
  }
  return rules.canPush(user, project, access, branch) ? { allowed: true } : deny(PUSH_PROTECTED);
}
