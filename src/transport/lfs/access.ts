// Who may use a repository's Git LFS endpoints, as GitLab 10.8's LfsRequest#lfs_check_access!
// decides it on top of git's own authentication (GitHttpClientController): the same
// credentials as git over HTTP (http_auth.ts: tokens, passwords, `gitlab-ci-token` job tokens,
// LFS tokens from SSH), the same checks as a fetch for a download and as a push for an upload
// (git_access.ts: visibility, membership, a token's scopes, archived projects; protected
// branches do not apply: objects are not refs), and LFS on for the project. A refusal is 403
// "Access forbidden" when the project can be seen, else 404 "Not found." (never revealing a
// private project); missing or bad credentials are git's 401 with a Basic challenge, which
// makes the LFS client ask for them.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import type { ProjectAccess } from '../../policy/projects.js';
import { projectLfsEnabled } from '../../policy/lfs.js';
import { findProjectByIdOrPath } from '../../finders/projects.js';
import { settingsOf } from '../../services/settings/application_settings.js';
import { checkAccess, GitAccessDenied, type GitActor } from '../git_access.js';
import { authenticate } from '../http_auth.js';
import { LFS_MESSAGES, LfsRefusal } from './answers.js';

export interface LfsRequest {
  project: ProjectWithNamespace;
  actor: GitActor;
  access: ProjectAccess;
}

export type LfsDirection = 'download' | 'upload';

/** The project and actor of an allowed request; throws GitHttpError (401) or LfsRefusal. */
export async function lfsAccess(deps: Deps, ctx: Koa.Context, rawFullPath: string, direction: LfsDirection): Promise<LfsRequest> {
  let fullPath: string;
  try {
    fullPath = decodeURIComponent(rawFullPath);
  } catch {
    throw new LfsRefusal(404, LFS_MESSAGES.notFound);
  }
  const project = await findProjectByIdOrPath(deps.db, fullPath);
  const settings = await settingsOf(deps);
  const service = direction === 'download' ? 'git-upload-pack' : 'git-receive-pack';
  const actor = await authenticate(deps, ctx.get('authorization') || undefined, project, service, settings);
  let access: ProjectAccess;
  try {
    access = await checkAccess(deps, actor, project, service, 'http', settings);
  } catch (err) {
    if (!(err instanceof GitAccessDenied)) throw err;
    throw err.notFound ? new LfsRefusal(404, LFS_MESSAGES.notFound) : new LfsRefusal(403, LFS_MESSAGES.forbidden);
  }
  if (!projectLfsEnabled(project!, deps.config.lfsEnabled)) throw new LfsRefusal(403, LFS_MESSAGES.forbidden);
  return { project: project!, actor, access };
}
