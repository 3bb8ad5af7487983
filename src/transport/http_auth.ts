// Authentication for git over smart HTTP, as GitLab 10.8's Projects::GitHttpClientController
// does it, and how a refusal is answered over HTTP (the checks themselves are git_access.ts):
// - Basic credentials given: the user `gitlab-ci-token` with a running CI job's token
//   (CI_REPOSITORY_URL) fetches what the job's user may download, never pushes
//   (Gitlab::Auth's build_access_token_check, build_download_code); then a personal access
//   token as the password (any username); then an LFS token that `git-lfs-authenticate` gave
//   over SSH (lfs/token_actor.ts), else
//   username or email with the account password when the `password_authentication_enabled_for_git`
//   setting is on. Bad credentials answer 401 even on a public project, so git asks again
//   rather than silently cloning as nobody; with password sign-in off, the 401 says to use a
//   personal access token (Gitlab::Auth::MissingPersonalAccessTokenError).
// - No credentials: only a download of a public project goes ahead; anything else is 401
//   with a Basic challenge, so git prompts (also for a private or missing project: the
//   anonymous cannot tell them apart).
// - Signed in: 403 with GitAccess's message when not allowed, 404 when the project cannot
//   be seen (as if it did not exist).
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { can, projectSubject } from '../policy/can.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import { tokenDigest } from '../services/users/tokens.js';
import { tokenExpired, tokenScopes } from '../store/token_facts.js';
import { verifyPassword } from '../services/users/users.js';
import { runningJobByToken } from '../finders/job_tokens.js';
import { findUserById } from '../finders/users.js';
import { lfsTokenActor } from './lfs/token_actor.js';
import { type GitAccessDenied, NO_MEMBERSHIP, type GitAbility, type GitActor } from './git_access.js';

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

function accessDenied(): GitHttpError {
  return new GitHttpError(401, 'HTTP Basic: Access denied\n', { 'WWW-Authenticate': 'Basic realm="GitLab"' });
}

/** GitAccess's refusal over HTTP: 404 for NotFoundError, else 403, with its message. */
export function httpRefusal(err: GitAccessDenied): GitHttpError {
  return new GitHttpError(err.notFound ? 404 : 403, err.message);
}

/** `Authorization: Basic …` as login and password; null when absent or another scheme. */
function basicCredentials(header: string | undefined): { login: string; password: string } | null {
  const m = /^Basic\s+(?:([A-Za-z0-9+/=_-]+)\s*)?$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { login: decoded, password: '' };
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** GitLab's abilities_for_scopes: `api` reads and writes, `read_repository` only reads. */
function abilitiesFor(scopes: string[]): Set<GitAbility> {
  const out = new Set<GitAbility>();
  if (scopes.includes('api')) {
    out.add('download_code');
    out.add('push_code');
  }
  if (scopes.includes('read_repository')) out.add('download_code');
  return out;
}

async function tokenActor(deps: Deps, password: string): Promise<GitActor | null> {
  const token = await deps
    .db('personal_access_tokens')
    .where({ token_digest: tokenDigest(password) })
    .first();
  if (!token || token.revoked || tokenExpired(token)) return null;
  const user: UserRow | undefined = await findUserById(deps.db, token.user_id);
  if (!user) return null;
  // Any known scope signs the user in; only api/read_repository give git abilities (GitLab's
  // valid_scoped_token? against every API scope, then abilities_for_scopes).
  return { user, abilities: abilitiesFor(tokenScopes(token)) };
}

/** A running job's token as `gitlab-ci-token`: its user, for fetching only. */
async function jobTokenActor(deps: Deps, login: string, password: string): Promise<GitActor | null> {
  if (login !== 'gitlab-ci-token') return null;
  const job = await runningJobByToken(deps.db, password);
  if (!job?.user_id) return null;
  const user = await findUserById(deps.db, job.user_id);
  return user ? { user, abilities: new Set<GitAbility>(['download_code']) } : null;
}

/** Username or email plus the account password, for active users (GitLab's default). */
async function passwordActor(deps: Deps, login: string, password: string): Promise<GitActor | null> {
  const lower = login.toLowerCase();
  const user: UserRow | undefined = await deps.db('users').whereRaw('lower(username) = ?', [lower]).orWhereRaw('lower(email) = ?', [lower]).first();
  if (!user || user.state !== 'active' || !(await verifyPassword(password, user.password_digest))) return null;
  return { user, abilities: new Set<GitAbility>(['download_code', 'push_code']) };
}

/** With password sign-in off, a failed login points at personal access tokens (no challenge). */
function tokenRequired(deps: Deps): GitHttpError {
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
        (await jobTokenActor(deps, creds.login, creds.password)) ??
        (await tokenActor(deps, creds.password)) ??
        (await lfsTokenActor(deps, creds.login, creds.password)) ??
        (passwords && creds.login ? await passwordActor(deps, creds.login, creds.password) : null);
      if (actor) return actor;
    }
    throw passwords ? accessDenied() : tokenRequired(deps);
  }
  if (project && service === 'git-upload-pack' && can(null, projectSubject(project, NO_MEMBERSHIP), 'download_code')) {
    return { user: null, abilities: new Set<GitAbility>(['download_code']) };
  }
  throw accessDenied();
}
