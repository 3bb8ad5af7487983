// Signing in to git over HTTP with an LFS token from `git-lfs-authenticate` (GitLab 10.8's
// Gitlab::Auth#lfs_token_check): the login is the SSH key's username, or `lfs+deploy-key-<id>`
// for a deploy key, and the password the token (services/lfs/tokens.ts). A user's token has
// the SSH key's abilities (read and write); a deploy key's reads, and writes where the key may
// push (decided per project by git_access.ts, as for SSH).
import type { Deps } from '../../deps.js';
import type { GitActor } from '../git_access.js';
import { validLfsToken } from '../../services/lfs/tokens.js';
import { findKey } from '../../finders/keys.js';
import { findUserByUsername } from '../../finders/users.js';
import { actorOf } from '../ssh_auth.js';

const DEPLOY_KEY_LOGIN = 'lfs+deploy-key-';
/** `<expiry seconds>.<43 base64url characters>`: told apart without a lookup (no backtracking). */
const TOKEN_SHAPE = /^\d{1,12}\.[A-Za-z0-9_-]{43}$/;

/** The deploy key id of a `lfs+deploy-key-<id>` login, else null. */
function deployKeyId(login: string): number | null {
  if (!login.startsWith(DEPLOY_KEY_LOGIN)) return null;
  const digits = login.slice(DEPLOY_KEY_LOGIN.length);
  return /^\d{1,10}$/.test(digits) ? Number(digits) : null;
}

export async function lfsTokenActor(deps: Deps, login: string, password: string): Promise<GitActor | null> {
  if (!TOKEN_SHAPE.test(password)) return null;
  const keyId = deployKeyId(login);
  if (keyId !== null) {
    if (!validLfsToken(deps.config, { kind: 'deploy_key', id: keyId }, password)) return null;
    const key = await findKey(deps.db, keyId);
    if (!key || key.type !== 'DeployKey') return null;
    return actorOf(deps, { kind: 'deploy_key', keyId, creatorId: key.user_id });
  }
  const user = await findUserByUsername(deps.db, login);
  if (!user || !validLfsToken(deps.config, { kind: 'user', id: user.id }, password)) return null;
  return actorOf(deps, { kind: 'user', keyId: 0, userId: user.id });
}
