// Creating, changing and removing protected-branch rules (GitLab 10.8's ProtectedBranches::
// ApiService, CreateService, DestroyService, the legacy developers_can_* services behind
// branches/:branch/protect, and Project#after_create_default_branch). Permissions are
// checked by the caller; rows only change here.
import type { Knex } from 'knex';
import { isUniqueViolation, type Conn, type Db } from '../../store/db.js';
import { settingsOf } from '../settings/application_settings.js';
import type { ProjectWithNamespace, ProtectedBranchRule } from '../../store/rows.js';
import { Conflict, Unprocessable } from '../../store/domain_errors.js';
import { now } from '../../store/time.js';
import { wellFormed } from '../../git/ref_names.js';
import { DEVELOPER, MASTER } from '../../store/levels.js';
import { BranchRules, PROTECTION_DEV_CAN_MERGE, PROTECTION_DEV_CAN_PUSH, PROTECTION_NONE } from '../../policy/branches.js';

/** The project's rules, oldest first (the list endpoint pages this). */
export function rulesQuery(db: Conn, projectId: number): Knex.QueryBuilder {
  return db('protected_branches').where({ project_id: projectId }).orderBy('id', 'asc');
}

/** The rule named exactly `name` (no wildcard matching: it is the rule's own name). */
export async function findRule(db: Conn, projectId: number, name: string): Promise<ProtectedBranchRule | undefined> {
  return db('protected_branches').where({ project_id: projectId, name }).first();
}

function alreadyExists(name: string): Conflict {
  return new Conflict(`Protected branch '${name}' already exists`);
}

export interface RuleAttrs {
  name: string;
  pushAccessLevel: number;
  mergeAccessLevel: number;
}

/** A rule's name matches branch names: a string column of 255 characters, in Unicode. */
const MAX_NAME = 255;

/**
 * Adds a rule: 409 when the name is taken, 422 (the model's full messages) when it is blank,
 * longer than the column, or not Unicode (a lone surrogate).
 */
export async function createRule(db: Conn, projectId: number, attrs: RuleAttrs): Promise<ProtectedBranchRule> {
  if (await findRule(db, projectId, attrs.name)) throw alreadyExists(attrs.name);
  if (attrs.name.trim() === '') throw new Unprocessable(["Name can't be blank"]);
  if (Array.from(attrs.name).length > MAX_NAME) throw new Unprocessable([`Name is too long (maximum is ${MAX_NAME} characters)`]);
  if (!wellFormed(attrs.name)) throw new Unprocessable(['Name is invalid']);
  const stamp = now();
  try {
    await db('protected_branches').insert({
      project_id: projectId,
      name: attrs.name,
      push_access_level: attrs.pushAccessLevel,
      merge_access_level: attrs.mergeAccessLevel,
      created_at: stamp,
      updated_at: stamp,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(attrs.name); // a concurrent create won
    throw err;
  }
  return (await findRule(db, projectId, attrs.name))!;
}

export async function destroyRule(db: Conn, rule: ProtectedBranchRule): Promise<void> {
  await db('protected_branches').where({ id: rule.id }).delete();
}

/**
 * branches/:branch/protect: creates the branch's rule (developers_can_* true → 30, else 40),
 * or updates only the flags that were given on an existing one.
 */
export async function legacyProtect(db: Conn, projectId: number, branch: string, flags: { developersCanPush?: boolean; developersCanMerge?: boolean }): Promise<void> {
  const level = (flag: boolean | undefined) => (flag ? DEVELOPER : MASTER);
  const existing = await findRule(db, projectId, branch);
  if (!existing) {
    try {
      await createRule(db, projectId, { name: branch, pushAccessLevel: level(flags.developersCanPush), mergeAccessLevel: level(flags.developersCanMerge) });
      return;
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      // Created meanwhile: fall through and update it.
    }
  }
  const changes: Partial<ProtectedBranchRule> = { updated_at: now() };
  if (flags.developersCanPush !== undefined) changes.push_access_level = level(flags.developersCanPush);
  if (flags.developersCanMerge !== undefined) changes.merge_access_level = level(flags.developersCanMerge);
  await db('protected_branches').where({ project_id: projectId, name: branch }).update(changes);
}

/** branches/:branch/unprotect: removes the rule named exactly `branch`, if any. */
export async function legacyUnprotect(db: Conn, projectId: number, branch: string): Promise<void> {
  await db('protected_branches').where({ project_id: projectId, name: branch }).delete();
}

/**
 * After the first commit of an empty repository (Project#after_create_default_branch):
 * protects the default branch per the default branch protection (the instance's setting
 * unless given), unless protection is off or a rule already covers it. 1 lets developers
 * push, 3 lets them merge, 2 neither.
 */
export async function protectDefaultBranch(db: Db, project: Pick<ProjectWithNamespace, 'id'>, branch: string, protection?: number): Promise<void> {
  protection ??= (await settingsOf({ db })).default_branch_protection;
  if (protection === PROTECTION_NONE) return;
  if ((await BranchRules.load(db, project)).isProtected(branch)) return;
  try {
    await createRule(db, project.id, {
      name: branch,
      pushAccessLevel: protection === PROTECTION_DEV_CAN_PUSH ? DEVELOPER : MASTER,
      mergeAccessLevel: protection === PROTECTION_DEV_CAN_MERGE ? DEVELOPER : MASTER,
    });
  } catch (err) {
    if (!(err instanceof Conflict)) throw err; // a concurrent first write protected it
  }
}
