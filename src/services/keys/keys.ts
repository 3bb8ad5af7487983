// Users' SSH keys (GitLab 10.8's Key model as lib/api/users.rb uses it): adding one to a user
// and deleting it. A key's fingerprint is unique among every key, deploy keys included; the
// check runs in the inserting transaction (BEGIN IMMEDIATE serialises writers on SQLite) and
// a unique-index violation from a concurrent writer elsewhere answers the same 400.
//
// GitLab records no event for keys (only system hooks, which Wharf has none of), so neither
// does Wharf.
import type { Deps } from '../../deps.js';
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { UserRow } from '../../store/rows.js';
import type { KeyRow, KeyType } from '../../store/keys.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import { keyErrors, keyRestrictionsOf, prepareKey, type KeyRestrictions, type PreparedKey } from './key_validation.js';
import { settingsOf } from '../settings/application_settings.js';
import { announce } from '../notify.js';

export interface NewKey {
  title: string;
  /** The public key as the client sent it. */
  key: string;
}

/** Whether a key with this fingerprint exists already. */
async function fingerprintTaken(db: Conn, prepared: PreparedKey): Promise<boolean> {
  if (!prepared.publicKey) return false;
  return !!(await db('keys').where({ fingerprint: prepared.publicKey.fingerprint }).first('id'));
}

/**
 * Validates and inserts a key of `type` for `userId` inside `tx`; `errors` shapes the 400 (the
 * field names as the caller's model reports them). Returns the stored row.
 */
export async function insertKey(
  tx: Conn,
  type: KeyType,
  userId: number | null,
  input: NewKey,
  restrictions: KeyRestrictions,
  errors: (fields: Record<string, string[]>) => Record<string, string[]> = (f) => f,
): Promise<KeyRow> {
  const prepared = prepareKey(input.key);
  const found = keyErrors(input.title, prepared, await fingerprintTaken(tx, prepared), restrictions);
  if (Object.keys(found).length) throw new Invalid(errors(found));
  const stamp = now();
  const row = {
    type,
    user_id: userId,
    title: input.title,
    key: prepared.text!,
    fingerprint: prepared.publicKey!.fingerprint,
    created_at: stamp,
    updated_at: stamp,
  };
  try {
    const id = await insertReturningId(tx, 'keys', row);
    return { id, ...row };
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid(errors({ fingerprint: ['has already been taken'] }));
    throw err;
  }
}

/** POST /user/keys, POST /users/:id/keys. */
export async function createUserKey(deps: Deps, owner: UserRow, input: NewKey): Promise<KeyRow> {
  const restrictions = keyRestrictionsOf(await settingsOf(deps));
  return deps.db.transaction(async (tx) => {
    const key = await insertKey(tx, 'Key', owner.id, input, restrictions);
    await announce(tx, { name: 'keyAdded', key, username: owner.username });
    return key;
  });
}

/** DELETE /user/keys/:key_id, DELETE /users/:id/keys/:key_id. */
export async function deleteUserKey(deps: Deps, key: KeyRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const owner: { username: string } | undefined = key.user_id === null ? undefined : await tx('users').where({ id: key.user_id }).first('username');
    if (owner) await announce(tx, { name: 'keyRemoved', key, username: owner.username });
    await tx('keys').where({ id: key.id, type: 'Key' }).delete();
  });
}

/** A user's own keys go with the user (their deploy keys stay, without a creator). */
export async function deleteKeysOfUsers(tx: Conn, userIds: number[]): Promise<void> {
  if (userIds.length) await tx('keys').whereIn('user_id', userIds).where({ type: 'Key' }).delete();
}
