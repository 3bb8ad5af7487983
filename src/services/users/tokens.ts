// Personal access tokens: random secrets of which only a SHA-256 digest is stored.
import crypto from 'node:crypto';
import type { Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { TokenRow } from '../../store/rows.js';
import { now } from '../../store/time.js';

export const TOKEN_SCOPES = ['api', 'read_user', 'sudo', 'read_repository'] as const;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 20 characters from a 62-letter alphabet, like GitLab's tokens (about 119 bits). */
export function generateToken(): string {
  const bytes = crypto.randomBytes(40);
  let out = '';
  for (const b of bytes) {
    if (b >= 248) continue; // 248 = 4 * 62: keep the distribution uniform
    out += ALPHABET[b % 62];
    if (out.length === 20) return out;
  }
  return generateToken();
}

export function tokenDigest(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface NewToken {
  userId: number;
  name: string;
  scopes: readonly string[];
  expiresAt?: string | null;
  impersonation?: boolean;
  /** A given secret (the configured root token); otherwise one is generated. */
  secret?: string;
}

/** Stores a token and returns its row together with the secret, which is never stored. */
export async function createToken(db: Conn, t: NewToken): Promise<{ row: TokenRow; token: string }> {
  const token = t.secret ?? generateToken();
  const stamp = now();
  const id = await insertReturningId(db, 'personal_access_tokens', {
    user_id: t.userId,
    name: t.name,
    token_digest: tokenDigest(token),
    scopes: JSON.stringify(t.scopes),
    impersonation: t.impersonation ?? false,
    revoked: false,
    expires_at: t.expiresAt ?? null,
    created_at: stamp,
    updated_at: stamp,
  });
  const row = await db('personal_access_tokens').where({ id }).first();
  return { row, token };
}

/** Revokes a token: it stays, but no longer signs anyone in. */
export async function revokeToken(db: Conn, token: TokenRow): Promise<void> {
  await db('personal_access_tokens').where({ id: token.id }).update({ revoked: true, updated_at: now() });
}
