// `git-lfs-authenticate <path> download|upload` over SSH, as gitlab-shell answered it: after the
// same access check as a fetch (download) or a push (upload) of that project over SSH, one
// line of JSON telling the LFS client where the project's LFS API is and the HTTP Basic header
// to use there, with an LFS token of the key's user (login: the username) or deploy key
// (`lfs+deploy-key-<id>`) valid for 30 minutes (services/lfs/tokens.ts).
import type { Deps } from '../../deps.js';
import type { GitRequest } from '../git_access.js';
import { fullPathOf } from '../../finders/projects.js';
import { issueLfsToken, LFS_TOKEN_SECONDS, lfsTokenLogin, type LfsTokenActor } from '../../services/lfs/tokens.js';

export function lfsAuthenticateAnswer(deps: Deps, req: GitRequest): string {
  const { user, deployKey } = req.actor;
  const actor: LfsTokenActor = user ? { kind: 'user', id: user.id } : { kind: 'deploy_key', id: deployKey!.id };
  const login = lfsTokenLogin(actor, user?.username);
  const token = issueLfsToken(deps.config, actor);
  const answer = {
    header: { Authorization: `Basic ${Buffer.from(`${login}:${token}`).toString('base64')}` },
    href: `${deps.urls.httpRepo(fullPathOf(req.project))}/info/lfs/`,
    expires_in: LFS_TOKEN_SECONDS,
  };
  return `${JSON.stringify(answer)}\n`;
}
