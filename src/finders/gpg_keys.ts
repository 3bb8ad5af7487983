// Finding users' GPG keys (GitLab 10.8's `user.gpg_keys`, in id order).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { GpgKeyRow } from '../store/gpg_key_rows.js';

/** A user's GPG keys (GET /user/gpg_keys, /users/:id/gpg_keys). */
export function userGpgKeysQuery(db: Conn, userId: number): Knex.QueryBuilder {
  return db('gpg_keys').where({ user_id: userId }).orderBy('id', 'asc');
}

export async function findUserGpgKey(db: Conn, userId: number, keyId: number): Promise<GpgKeyRow | undefined> {
  return db('gpg_keys').where({ user_id: userId, id: keyId }).first();
}
