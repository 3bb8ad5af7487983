// Who is at the other end of an SSH connection: public-key authentication against users' keys
// and deploy keys (GitLab's authorized_keys, one line per key, looked up by fingerprint).
// Only the user `git` signs in, only with a public key. A key offered without a signature
// (the client asking whether it would do) is accepted when it is known; a signed one must
// verify with the stored key, whose blob must equal the offered one (not just its MD5).
//
// As with gitlab-shell, a known key always signs in; whether its user is blocked, or a deploy
// key may reach the project, is decided per command (git_access.ts) with GitLab's messages.
import crypto from 'node:crypto';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { findKeyByFingerprint } from '../finders/keys.js';
import { findUserById } from '../finders/users.js';
import { fingerprintOf, parsePublicKey } from '../services/keys/ssh_public_key.js';
import type { GitAbility, GitActor } from './git_access.js';

export const SSH_USER = 'git';

/** An authenticated connection: the key it signed in with and whose it is. */
export type SshIdentity = { kind: 'user'; keyId: number; userId: number } | { kind: 'deploy_key'; keyId: number; creatorId: number | null };

/** The offered public key: ssh2's `ctx.key` and, once signed, `ctx.signature` over `ctx.blob`. */
export interface OfferedKey {
  data: Buffer;
  signature?: Buffer;
  blob?: Buffer;
  hashAlgo?: string;
}

/**
 * The identity a key stands for, or null when it is unknown (or its signature does not
 * verify). Without a signature the key is only looked up: the client then signs.
 */
export async function identify(deps: Deps, offered: OfferedKey): Promise<SshIdentity | null> {
  const row = await findKeyByFingerprint(deps.db, fingerprintOf(offered.data));
  if (!row) return null;
  const stored = parsePublicKey(row.key);
  if (!stored || stored.blob.length !== offered.data.length || !crypto.timingSafeEqual(stored.blob, offered.data)) return null;
  if (offered.signature) {
    if (!offered.blob || stored.parsed.verify(offered.blob, offered.signature, offered.hashAlgo) !== true) return null;
  }
  if (row.type === 'DeployKey') return { kind: 'deploy_key', keyId: row.id, creatorId: row.user_id };
  return row.user_id === null ? null : { kind: 'user', keyId: row.id, userId: row.user_id };
}

/** GitLab's ssh_authentication_abilities. */
const SSH_ABILITIES: ReadonlySet<GitAbility> = new Set<GitAbility>(['download_code', 'push_code']);

/**
 * The git actor of an identity, read afresh for each command (a user blocked since the
 * connection opened is refused). Null when the key's user is gone.
 */
export async function actorOf(deps: Deps, identity: SshIdentity): Promise<GitActor | null> {
  if (identity.kind === 'user') {
    const user = await findUserById(deps.db, identity.userId);
    return user ? { user, abilities: SSH_ABILITIES } : null;
  }
  const creator: UserRow | null = identity.creatorId === null ? null : ((await findUserById(deps.db, identity.creatorId)) ?? null);
  return { user: null, abilities: SSH_ABILITIES, deployKey: { id: identity.keyId, creator } };
}

/** gitlab-shell's greeting name: `@username` of the key's user (a deploy key's creator), else Anonymous. */
export function greetingName(actor: GitActor | null): string {
  const user = actor ? (actor.user ?? actor.deployKey?.creator ?? null) : null;
  return user ? `@${user.username}` : 'Anonymous';
}
