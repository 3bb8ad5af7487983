// What a push does around `git receive-pack`, the same over smart HTTP and SSH: before git is
// given the ref updates, the lock files a crash left on them are cleared (under the project's
// repository lock: the project must still live in this folder) and the per-ref checks are
// written for the pre-receive hook (push_checks.ts, hooks.ts); once git is done, the refs that
// moved get GitLab's after-push work (services/push/refs_moved.ts: default branch, events, merge
// request refresh, statistics), credited to the pusher (a deploy key's creator for a key).
import type { Deps } from '../deps.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { listBranchHeads } from '../git/refs.js';
import { clearStaleRefLocks } from '../git/stale_locks.js';
import { afterRefsMoved } from '../services/push/refs_moved.js';
import { settingsOf } from '../services/settings/application_settings.js';
import { withProjectRepository } from '../services/repository/guard.js';
import { GitAccessDenied, MESSAGES, pusherOf, type GitRequest } from './git_access.js';
import { hooksPath, PushDir } from './hooks.js';
import type { CommandList } from './pktline.js';
import { pushChecks } from './push_checks.js';

/**
 * Under the project's repository lock (so that no rename or delete is half done and no other
 * process clears the same file): the project must still live in this folder, else the push
 * answers as for a missing project; lock files a crash left on the pushed refs are cleared.
 * git itself takes each ref's lock for the update; a push is not held under the repository
 * lock while it uploads, which would stop every API write for as long as a slow client takes.
 */
async function clearLeftoverLocks(deps: Deps, req: GitRequest, list: CommandList): Promise<void> {
  try {
    await withProjectRepository(deps, req.project, (gitdir) =>
      clearStaleRefLocks(
        gitdir,
        list.commands.map((c) => c.ref),
      ),
    );
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 404 || status === 409) throw new GitAccessDenied(MESSAGES.projectNotFound, true);
    throw err;
  }
}

/** The `git` options that make receive-pack run Wharf's hooks (throws if they cannot run: never push unchecked). */
export function receivePackConfig(): string[] {
  return ['-c', `core.hooksPath=${hooksPath()}`];
}

/** A push's private folder (PushDir) and the environment that points git's hooks at it. */
export async function openPush(): Promise<{ dir: PushDir; env: Record<string, string> }> {
  const dir = await PushDir.create();
  return { dir, env: { WHARF_PUSH_DIR: dir.dir } };
}

/** Before git sees the command list: leftover locks cleared, the hook's checks written. */
export async function preparePush(deps: Deps, req: GitRequest, list: CommandList, dir: PushDir): Promise<void> {
  await clearLeftoverLocks(deps, req, list);
  if (!list.commands.length) return;
  const emptyRepo = (await listBranchHeads(req.gitdir)).size === 0;
  const protection = emptyRepo ? (await settingsOf(deps)).default_branch_protection : undefined;
  await dir.writeChecks(await pushChecks(deps.db, req.actor, req.project, req.access, list.commands, emptyRepo, protection));
}

/** After git is done: the after-push work for the refs that moved (which are final whatever the client does now). */
export async function followUpPush(deps: Deps, req: GitRequest, dir: PushDir): Promise<void> {
  try {
    // The project as it is now: renamed meanwhile, git carried on in the moved folder (it
    // works relative to the folder it entered); deleted, there is nothing to follow.
    const project = await findProjectByIdOrPath(deps.db, String(req.project.id));
    if (project) await afterRefsMoved(deps, { project, user: pusherOf(req.actor), updates: await dir.pushed(), statistics: 'queued' });
  } catch (err) {
    deps.log.error({ err, project: req.project.id }, 'after-push work failed');
  }
}
