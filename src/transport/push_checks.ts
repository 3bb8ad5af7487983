// The per-ref checks of a push (GitLab's ChangeAccess, implemented by policy/branches.ts
// `checkRefUpdate`), decided from the command list before git receives the pack. Only one
// fact needs the pushed objects: whether an update of a protected branch is a force push.
// For those refs both verdicts are computed here and the pre-receive hook picks one with
// `git merge-base --is-ancestor` (see hooks.ts). GitLab refuses the whole push at the first
// failing change, in command order; the hook does the same with the lines in that order.
// A deploy key's updates are decided by its own rule (policy/deploy_keys.ts), HTTP or SSH alike.
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import type { ProjectAccess } from '../policy/projects.js';
import { checkRefUpdate, type RefCheck, type RefUpdate } from '../policy/branches.js';
import { deployKeyRefCheck } from '../policy/deploy_keys.js';
import { isZero, type RefCommand } from './pktline.js';
import type { HookCheck } from './hooks.js';
import type { GitActor } from './git_access.js';

/**
 * The hook's checks for `commands`: one line per ref whose outcome is a refusal or depends
 * on force, up to the first certain refusal (nothing after it can matter).
 */
export async function pushChecks(
  db: Conn,
  actor: GitActor,
  project: ProjectWithNamespace,
  access: ProjectAccess,
  commands: RefCommand[],
  emptyRepo: boolean,
  /** The instance's default branch protection (it decides about an empty repository). */
  protection?: number,
): Promise<HookCheck[]> {
  const check = (update: RefUpdate): Promise<RefCheck> | RefCheck => (actor.deployKey ? deployKeyRefCheck(update) : checkRefUpdate(db, actor.user, project, access, update));
  const out: HookCheck[] = [];
  for (const c of commands) {
    const update: RefUpdate = { ref: c.ref, oldOid: c.oldOid, newOid: c.newOid, isForce: false, emptyRepo, protection };
    const plain = await check(update);
    // Only an update (neither creation nor deletion) of a branch can be a force push.
    const mayBeForced = c.ref.startsWith('refs/heads/') && !isZero(c.oldOid) && !isZero(c.newOid);
    const forced = mayBeForced ? await check({ ...update, isForce: true }) : plain;
    const otherwise = plain.allowed ? '' : plain.message;
    const ifForced = forced.allowed ? '' : forced.message;
    if (!otherwise && !ifForced) continue;
    out.push({ oldOid: c.oldOid, newOid: c.newOid, forced: ifForced, otherwise });
    if (otherwise && ifForced) break; // refused either way
  }
  return out;
}
