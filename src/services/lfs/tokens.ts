// The short-lived tokens `git-lfs-authenticate` hands out over SSH (GitLab 10.8's Gitlab::LfsToken,
// which gitlab-shell turned into an HTTP Basic header): the client then talks LFS over HTTP as
// the SSH key's user (login: the username) or deploy key (login: `lfs+deploy-key-<id>`), for
// 30 minutes. GitLab kept each token in Redis; here it is signed instead, an expiry time and an
// HMAC-SHA256 of actor and expiry under a key derived from the server secret, so every process
// checks it without shared state and nothing is stored.
import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import { derivedKey } from '../security/secret_box.js';

/** As GitLab's LfsToken::EXPIRY_TIME. */
export const LFS_TOKEN_SECONDS = 1800;

export type LfsTokenActor = { kind: 'user'; id: number } | { kind: 'deploy_key'; id: number };

type SecretConfig = Pick<Config, 'serverSecret'>;

function signature(config: SecretConfig, actor: LfsTokenActor, expires: number): string {
  return crypto.createHmac('sha256', derivedKey(config, 'lfs token')).update(`${actor.kind}:${actor.id}:${expires}`).digest('base64url');
}

/** The login an LFS token goes with (GitLab's LfsToken#actor_name). */
export function lfsTokenLogin(actor: LfsTokenActor, username?: string): string {
  return actor.kind === 'user' ? username! : `lfs+deploy-key-${actor.id}`;
}

export function issueLfsToken(config: SecretConfig, actor: LfsTokenActor, at = Date.now()): string {
  const expires = Math.floor(at / 1000) + LFS_TOKEN_SECONDS;
  return `${expires}.${signature(config, actor, expires)}`;
}

/** Whether `token` is a live LFS token of `actor`. */
export function validLfsToken(config: SecretConfig, actor: LfsTokenActor, token: string, at = Date.now()): boolean {
  const dot = token.indexOf('.');
  if (dot < 1 || dot > 12) return false;
  const expires = Number(token.slice(0, dot));
  if (!Number.isInteger(expires) || expires * 1000 < at) return false;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(config, actor, expires));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
