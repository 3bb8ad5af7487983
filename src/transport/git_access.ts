// Who may clone, fetch or push a project over git, whatever the transport (smart HTTP or SSH),
// in the order GitLab 10.8's Gitlab::GitAccess#check decides it with the changes still unknown
// (`_any`): blocked user, the credentials' abilities, the command, the project (not found when
// it cannot be seen), the repository, then download or push rights. The per-ref checks of a
// push are in push_checks.ts; how a transport authenticates is its own (http_auth.ts,
// ssh_auth.ts), and so is how it shows a refusal: HTTP answers 403/404 with the message,
// SSH prints `GitLab: <message>` on the client's screen, as gitlab-shell did.
//
// The actor is a user (null when anonymous, over HTTP only) or a deploy key (SSH), which is no
// user: it reads the projects it is enabled in (or public ones) and pushes where it may
// (policy/deploy_keys.ts).
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import { canReadProject, projectAccess, type ProjectAccess } from '../policy/projects.js';
import { can, projectSubject } from '../policy/can.js';
import { deployKeyLink } from '../finders/keys.js';
import { fullPathOf } from '../finders/projects.js';

export type GitCommand = 'git-upload-pack' | 'git-receive-pack' | 'git-upload-archive';
/** What smart HTTP serves. */
export type GitService = 'git-upload-pack' | 'git-receive-pack';
const HTTP_COMMANDS: readonly GitCommand[] = ['git-upload-pack', 'git-receive-pack'];
/** What gitlab-shell ran over SSH (its LFS and 2FA commands aside). */
export const SSH_COMMANDS: readonly GitCommand[] = ['git-upload-pack', 'git-receive-pack', 'git-upload-archive'];
const DOWNLOAD_COMMANDS: readonly GitCommand[] = ['git-upload-pack', 'git-upload-archive'];

export const MESSAGES = {
  upload: 'You are not allowed to upload code for this project.',
  download: 'You are not allowed to download code from this project.',
  authUpload: 'You are not allowed to upload code.',
  authDownload: 'You are not allowed to download code.',
  deployKeyUpload: 'This deploy key does not have write access to this project.',
  noRepo: 'A repository for this project does not exist yet.',
  projectNotFound: 'The project you were looking for could not be found.',
  commandNotAllowed: "The command you're trying to execute is not allowed.",
  blocked: 'Your account has been blocked.',
  pushCode: 'You are not allowed to push code to this project.',
  httpNotAllowed: 'Git access over HTTP is not allowed',
  sshNotAllowed: 'Git access over SSH is not allowed',
} as const;

/** GitAccess's refusal: UnauthorizedError, or NotFoundError when `notFound`. */
export class GitAccessDenied extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

export type GitAbility = 'download_code' | 'push_code';

/** A deploy key as an actor: its id, and the user who created it (who pushes are credited to). */
interface DeployKeyActor {
  id: number;
  creator: UserRow | null;
}

/** The authenticated party and what its credentials allow. */
export interface GitActor {
  /** The user; null when anonymous or a deploy key. */
  user: UserRow | null;
  abilities: ReadonlySet<GitAbility>;
  deployKey?: DeployKeyActor;
}

/** Everything a transport needs once access is granted. */
export interface GitRequest {
  project: ProjectWithNamespace;
  actor: GitActor;
  /** The user's membership (none for a deploy key), for the per-ref checks of a push. */
  access: ProjectAccess;
  command: GitCommand;
  gitdir: string;
}

export const NO_MEMBERSHIP: ProjectAccess = { projectLevel: null, groupLevel: null, owner: false };

/** Who the effects of a push are credited to: the user, or the deploy key's creator. */
export function pusherOf(actor: GitActor): UserRow | null {
  return actor.user ?? actor.deployKey?.creator ?? null;
}

const notFound = (message: string) => new GitAccessDenied(message, true);

async function checkDeployKey(deps: Deps, key: DeployKeyActor, project: ProjectWithNamespace | undefined, command: GitCommand): Promise<void> {
  if (!project) throw notFound(MESSAGES.projectNotFound);
  const link = (await deployKeyLink(deps.db, key.id, project.id)) ?? null;
  const subject = { kind: 'deploy_key_access', project, link } as const;
  if (!can(null, subject, 'read_project')) throw notFound(MESSAGES.projectNotFound);
  if (!deps.repos.exists(fullPathOf(project))) throw notFound(MESSAGES.noRepo);
  if (DOWNLOAD_COMMANDS.includes(command)) {
    if (!can(null, subject, 'download_code')) throw new GitAccessDenied(MESSAGES.download);
  } else if (!can(null, subject, 'push_code')) {
    // Write access on a project that refuses every push (archived): the push itself is refused.
    throw new GitAccessDenied(link?.can_push ? MESSAGES.pushCode : MESSAGES.deployKeyUpload);
  }
}

/**
 * GitAccess#check for a command whose ref updates are not known yet. Returns the actor's
 * access to the project for the per-ref checks; throws GitAccessDenied otherwise. The
 * transport decides which commands are served and whether the instance's
 * `enabled_git_access_protocol` lets it in (checked first, as check_protocol!).
 */
export async function checkAccess(
  deps: Deps,
  actor: GitActor,
  project: ProjectWithNamespace | undefined,
  command: string | undefined,
  transport: 'http' | 'ssh',
  settings: Pick<ApplicationSettings, 'enabled_git_access_protocol'>,
): Promise<ProjectAccess> {
  const { user } = actor;
  const only = settings.enabled_git_access_protocol;
  if (only && only !== transport) throw new GitAccessDenied(transport === 'http' ? MESSAGES.httpNotAllowed : MESSAGES.sshNotAllowed);
  const commands = transport === 'http' ? HTTP_COMMANDS : SSH_COMMANDS;
  if (user && user.state !== 'active') throw new GitAccessDenied(MESSAGES.blocked);
  const download = DOWNLOAD_COMMANDS.includes(command as GitCommand);
  if (download && !actor.abilities.has('download_code')) throw new GitAccessDenied(MESSAGES.authDownload);
  if (command === 'git-receive-pack' && !actor.abilities.has('push_code')) throw new GitAccessDenied(MESSAGES.authUpload);
  if (!commands.includes(command as GitCommand)) throw new GitAccessDenied(MESSAGES.commandNotAllowed);
  if (actor.deployKey) {
    await checkDeployKey(deps, actor.deployKey, project, command as GitCommand);
    return NO_MEMBERSHIP;
  }
  const access = project ? await projectAccess(deps.db, user, project) : NO_MEMBERSHIP;
  if (!project || !canReadProject(user, project, access)) throw notFound(MESSAGES.projectNotFound);
  if (!deps.repos.exists(fullPathOf(project))) throw notFound(MESSAGES.noRepo);
  const subject = projectSubject(project, access);
  if (download) {
    if (!can(user, subject, 'download_code')) throw new GitAccessDenied(MESSAGES.download);
  } else {
    if (!user) throw new GitAccessDenied(MESSAGES.upload);
    if (!can(user, subject, 'push_code')) throw new GitAccessDenied(MESSAGES.pushCode);
  }
  return access;
}
