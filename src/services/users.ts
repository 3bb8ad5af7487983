// Creating users: the user row and its personal namespace, in one transaction.
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { Tx } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { now } from '../store/time.js';
import { createNamespace } from './namespaces.js';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

/** `scrypt$<salt>$<hash>`, both base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, digest: string | null): Promise<boolean> {
  if (!digest) return false;
  const [scheme, salt, hash] = digest.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return crypto.timingSafeEqual(actual, expected);
}

export interface NewUser {
  username: string;
  email: string;
  name: string;
  /** Already hashed (hashPassword), outside the transaction: scrypt is slow on purpose. */
  passwordDigest?: string | null;
  admin?: boolean;
  /** Any other column of `users` (bio, projects_limit, external, ...). */
  extra?: Partial<UserRow>;
}

export async function insertUser(tx: Tx, u: NewUser): Promise<UserRow> {
  const stamp = now();
  const [idRow] = await tx('users')
    .insert({
      ...u.extra,
      username: u.username,
      email: u.email,
      name: u.name,
      password_digest: u.passwordDigest ?? null,
      admin: u.admin ?? false,
      confirmed_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id');
  const id = typeof idRow === 'object' ? idRow.id : idRow;
  await createNamespace(tx, { kind: 'user', name: u.username, path: u.username, ownerId: id, visibilityLevel: 20 });
  return tx('users').where({ id }).first();
}
