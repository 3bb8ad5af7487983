// Who may clone, fetch or push a project over HTTP, in the order GitLab 10.8 decides it
// (Projects::GitHttpClientController#authenticate_user, then Gitlab::GitAccess#check with
// the changes unknown, `_any`). The per-ref checks of a push are in push_checks.ts.
//
// - Basic credentials given: a personal access token as the password (any username), else
//   username or email with the account password when the `password_authentication_enabled_for_git`
//   setting is on. Bad credentials answer 401 even on a public project, so git asks again
//   rather than silently cloning as nobody; with password sign-in off, the 401 says to use a
//   personal access token (Gitlab::Auth::MissingPersonalAccessTokenError).
// - The `enabled_git_access_protocol` setting set to `ssh` refuses git over HTTP (403).
// - No credentials: only a download of a public project goes ahead; anything else is 401
//   with a Basic challenge, so git prompts (also for a private or missing project: the
//   anonymous cannot tell them apart).
// - Signed in: 403 with GitAccess's message when not allowed, 404 when the project cannot
//   be seen (as if it did not exist).
import type { Deps } from '../deps.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { canReadProject, projectAccess, type ProjectAccess } from '../policy/projects.js';
import { can, projectSubject } from '../policy/can.js';
import { tokenDigest } from '../services/tokens.js';
import { tokenExpired, tokenScopes } from '../store/token_facts.js';
import { verifyPassword } from '../services/users.js';
import { fullPathOf } from '../finders/projects.js';

export type GitService = 'git-upload-pack' | 'git-receive-pack';
export const SERVICES: readonly GitService[] = ['git-upload-pack', 'git-receive-pack'];

/** An HTTP answer to a git client: plain text, as GitLab renders them. */
export class GitHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(body);
  }
}

export const MESSAGES = {
  upload: 'You are not allowed to upload code for this project.',
  download: 'You are not allowed to download code from this project.',
  authUpload: 'You are not allowed to upload code.',
  authDownload: 'You are not allowed to download code.',
  noRepo: 'A repository for this project does not exist yet.',
  projectNotFound: 'The project you were looking for could not be found.',
  commandNotAllowed: "The command you're trying to execute is not allowed.",
  blocked: 'Your account has been blocked.',
  pushCode: 'You are not allowed to push code to this project.',
  httpNotAllowed: 'Git access over HTTP is not allowed',
} as const;

export function accessDenied(): GitHttpError {
  return new GitHttpError(401, 'HTTP Basic: Access denied\n', { 'WWW-Authenticate': 'Basic realm="GitLab"' });
}

type Ability = 'download_code' | 'push_code';

const NO_MEMBERSHIP: ProjectAccess = { projectLevel: null, groupLevel: null, owner: false };

/** The authenticated party: a user (null when anonymous) and what its credentials allow. */
export interface GitActor {
  user: UserRow | null;
  abilities: ReadonlySet<Ability>;
}

/** `Authorization: Basic …` as login and password; null when absent or another scheme. */
export function basicCredentials(header: string | undefined): { login: string; password: string } | null {
  const m = /^Basic\s+(?:([A-Za-z0-9+/=_-]+)\s*)?$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { login: decoded, password: '' };
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** GitLab's abilities_for_scopes: `api` reads and writes, `read_repository` only reads. */
function abilitiesFor(scopes: string[]): Set<Ability> {
  const out = new Set<Ability>();
  if (scopes.includes('api')) {
    out.add('download_code');
    out.add('push_code');
  }
  if (scopes.includes('read_repository')) out.add('download_code');
  return out;
}

async function tokenActor(deps: Deps, password: string): Promise<GitActor | null> {
  const token = await deps.db('personal_access_tokens').where({ token_digest: tokenDigest(password) }).first();
  if (!token || token.revoked || tokenExpired(token)) return null;
  const user: UserRow | undefined = await deps.db('users').where({ id: token.user_id }).first();
  if (!user) return null;
  // Any known scope signs the user in; only api/read_repository give git abilities (GitLab's
  // valid_scoped_token? against every API scope, then abilities_for_scopes).
  return { user, abilities: abilitiesFor(tokenScopes(token)) };
}

/** Username or email plus the account password, for active users (GitLab's default). */
async function passwordActor(deps: Deps, login: string, password: string): Promise<GitActor | null> {
  const lower = login.toLowerCase();
  const user: UserRow | undefined = await deps.db('users')
    .whereRaw('lower(username) = ?', [lower])
    .orWhereRaw('lower(email) = ?', [lower])
    .first();
  if (!user || user.state !== 'active' || !(await verifyPassword(password, user.password_digest))) return null;
  return { user, abilities: new Set<Ability>(['download_code', 'push_code']) };
}

/** With password sign-in off, a failed login points at personal access tokens (no challenge). */
export function tokenRequired(deps: Deps): GitHttpError {
  return new GitHttpError(
    401,
    "HTTP Basic: Access denied\nYou must use a personal access token with 'api' scope for Git over HTTP.\n" +
      `You can generate one at ${deps.urls.base}/profile/personal_access_tokens`,
  );
}

/** The actor of a request, or a 401 GitHttpError. */
export async function authenticate(
  deps: Deps,
  authorization: string | undefined,
  project: ProjectWithNamespace | undefined,
  service: string | undefined,
  settings: Pick<ApplicationSettings, 'password_authentication_enabled_for_git'>,
): Promise<GitActor> {
  const creds = basicCredentials(authorization);
  if (creds) {
    const passwords = settings.password_authentication_enabled_for_git;
    if (creds.password) {
      const actor =
        (await tokenActor(deps, creds.password)) ?? (passwords && creds.login ? await passwordActor(deps, creds.login, creds.password) : null);
      if (actor) return actor;
    }
    throw passwords ? accessDenied() : tokenRequired(deps);
  }
  if (project && service === 'git-upload-pack' && can(null, projectSubject(project, NO_MEMBERSHIP), 'download_code')) {
    return { user: null, abilities: new Set<Ability>(['download_code']) };
  }
  throw accessDenied();
}

export function forbidden(message: string): GitHttpError {
  return new GitHttpError(403, message);
}

/** Whether the user may push at all: push_code (which an archived project refuses, policy/archived.ts). */
export function canPushCode(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  return can(user, projectSubject(project, access), 'push_code');
}

/**
 * GitAccess#check for a request whose ref updates are not known yet. Returns the user's
 * access to the project for the per-ref checks; throws GitHttpError (403/404) otherwise.
 */
export async function checkAccess(
  deps: Deps,
  actor: GitActor,
  project: ProjectWithNamespace | undefined,
  service: string | undefined,
  settings: Pick<ApplicationSettings, 'enabled_git_access_protocol'>,
): Promise<ProjectAccess> {
  const { user } = actor;
  // GitAccess#check_protocol!, before anything else.
  if (settings.enabled_git_access_protocol === 'ssh') throw forbidden(MESSAGES.httpNotAllowed);
  if (user && user.state !== 'active') throw forbidden(MESSAGES.blocked);
  if (service === 'git-upload-pack' && !actor.abilities.has('download_code')) throw forbidden(MESSAGES.authDownload);
  if (service === 'git-receive-pack' && !actor.abilities.has('push_code')) throw forbidden(MESSAGES.authUpload);
  if (!SERVICES.includes(service as GitService)) throw forbidden(MESSAGES.commandNotAllowed);
  const access = project ? await projectAccess(deps.db, user, project) : NO_MEMBERSHIP;
  if (!project || !canReadProject(user, project, access)) throw new GitHttpError(404, MESSAGES.projectNotFound);
  if (!deps.repos.exists(fullPathOf(project))) throw new GitHttpError(404, MESSAGES.noRepo);
  if (service === 'git-upload-pack') {
    if (!can(user, projectSubject(project, access), 'download_code')) throw forbidden(MESSAGES.download);
  } else {
    if (!user) throw forbidden(MESSAGES.upload);
    if (!canPushCode(user, project, access)) throw forbidden(MESSAGES.pushCode);
  }
  return access;
}
