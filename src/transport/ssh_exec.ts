// One `exec` request over SSH: the command parsed strictly (ssh_command.ts), the project looked
// up, the same access checks as smart HTTP (git_access.ts), then the real git on the channel
// (ssh_channel_git.ts). A push goes through the same push session as HTTP (push_session.ts):
// its command list is read first, leftover ref locks are cleared and the per-ref checks
// written for the pre-receive hook before git sees it, and the after-push work runs before the
// client gets git's exit status. Refusals print `GitLab: <message>` on the client's screen and
// exit 1, as gitlab-shell did; nothing else is ever run. `git-lfs-authenticate` runs no git:
// it answers the LFS client's request for HTTP credentials (lfs/ssh_authenticate.ts).
import type { Readable } from 'node:stream';
import type { ServerChannel } from 'ssh2';
import type { Deps } from '../deps.js';
import { recordUserActivity } from '../services/users/activity.js';
import { findProjectByIdOrPath, fullPathOf, gitdirOf } from '../finders/projects.js';
import { checkAccess, GitAccessDenied, type GitActor, type GitRequest } from './git_access.js';
import { settingsOf } from '../services/settings/application_settings.js';
import { actorOf, type SshIdentity } from './ssh_auth.js';
import { parseSshCommand } from './ssh_command.js';
import { lfsAuthenticateAnswer } from './lfs/ssh_authenticate.js';
import { runGitOnChannel, type ChannelGitRun } from './ssh_channel_git.js';
import { gitEnvironment } from './git_env.js';
import { redactPaths } from './redact.js';
import { readHead } from './body.js';
import { CommandListReader, type CommandList } from './pktline.js';
import { followUpPush, openPush, preparePush, receivePackConfig } from './push_session.js';
import { SidebandRedactor, wantsSideband } from './sideband_redact.js';

/** The command list of a push may be long (a mirror push of many tags), not unbounded. */
const MAX_COMMAND_LIST = 32 * 1024 * 1024;

/** What the session learnt before the command: GIT_PROTOCOL from an `env` request. */
export interface SessionEnv {
  gitProtocol?: string;
}

/** Prints a refusal on the client's screen and ends the channel with status 1. */
function refuse(channel: ServerChannel, message: string): void {
  channel.stderr.write(`GitLab: ${message}\n`);
  channel.exit(1);
  channel.end();
}

async function authorize(deps: Deps, actor: GitActor, command: string, path: string): Promise<GitRequest> {
  const project = await findProjectByIdOrPath(deps.db, path);
  const access = await checkAccess(deps, actor, project, command, 'ssh', await settingsOf(deps));
  return { project: project!, actor, access, command: command as GitRequest['command'], gitdir: gitdirOf(deps.repos, project!) };
}

function baseRun(deps: Deps, req: GitRequest, channel: ServerChannel, env: SessionEnv, extra: Record<string, string> = {}) {
  return {
    channel,
    env: gitEnvironment(env.gitProtocol, extra),
    redact: (text: string) => redactPaths(text, req.gitdir, fullPathOf(req.project), deps.repos.root),
  } satisfies Partial<ChannelGitRun>;
}

async function serveFetch(deps: Deps, req: GitRequest, channel: ServerChannel, env: SessionEnv): Promise<void> {
  // Both download commands count as activity (10.8's DOWNLOAD_COMMANDS), git archive --remote too.
  await recordUserActivity(deps.db, req.actor.user);
  // Partial clone: let clients ask for `--filter=blob:none` and the like.
  const args = req.command === 'git-upload-pack' ? ['-c', 'uploadpack.allowFilter=true', 'upload-pack', req.gitdir] : ['upload-archive', req.gitdir];
  await runGitOnChannel({ ...baseRun(deps, req, channel, env), args, killOnDisconnect: true });
}

async function servePush(deps: Deps, req: GitRequest, channel: ServerChannel, env: SessionEnv): Promise<void> {
  const config = receivePackConfig(); // throws if hooks cannot run: never push unchecked
  const { dir, env: pushEnv } = await openPush();
  try {
    const run = baseRun(deps, req, channel, env, pushEnv);
    await runGitOnChannel({
      ...run,
      args: [...config, 'receive-pack', req.gitdir],
      killOnDisconnect: false,
      takeHead: async (input: Readable) => {
        const reader = new CommandListReader();
        const { value: list, head } = await readHead<CommandList>(input, (chunk) => reader.feed(chunk), MAX_COMMAND_LIST);
        await preparePush(deps, req, list, dir);
        return { head, rewrite: wantsSideband(list.capabilities) ? new SidebandRedactor(run.redact) : undefined };
      },
      afterExit: () => followUpPush(deps, req, dir),
    });
  } finally {
    await dir.remove();
  }
}

/** Runs the client's `exec` request on `channel` for `identity`. */
export async function runExec(deps: Deps, identity: SshIdentity, text: string, channel: ServerChannel, env: SessionEnv): Promise<void> {
  const parsed = parseSshCommand(text);
  if (!parsed.ok) return refuse(channel, parsed.message);
  const actor = await actorOf(deps, identity);
  if (!actor) return refuse(channel, 'The project you were looking for could not be found.');
  // git-lfs-authenticate is checked as the fetch or push it is for, as gitlab-shell did.
  const command = parsed.command !== 'git-lfs-authenticate' ? parsed.command : parsed.operation === 'download' ? 'git-upload-pack' : 'git-receive-pack';
  let req: GitRequest;
  try {
    req = await authorize(deps, actor, command, parsed.path);
  } catch (err) {
    if (err instanceof GitAccessDenied) return refuse(channel, err.message);
    throw err;
  }
  deps.log.info({ command: parsed.command, project: req.project.id, key: identity.keyId, user: actor.user?.id ?? null }, 'ssh git command');
  if (parsed.command === 'git-lfs-authenticate') {
    channel.write(lfsAuthenticateAnswer(deps, req));
    channel.exit(0);
    channel.end();
    return;
  }
  if (req.command === 'git-receive-pack') await servePush(deps, req, channel, env);
  else await serveFetch(deps, req, channel, env);
}
