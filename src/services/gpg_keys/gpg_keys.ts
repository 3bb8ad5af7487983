// Users' GPG keys (GitLab 10.8's GpgKeys::CreateService, GpgKey#destroy and #revoke): adding a
// key to a user with its subkeys, deleting it, revoking it. The checks run in the inserting
// transaction; a unique-index violation from a concurrent writer answers the same 400.
// Revoking in GitLab also marks the signatures the key verified as made by an unknown key;
// Wharf keeps no signatures (10.8's API shows none), so a revoked key is simply gone, as there.
// GitLab mails the user about a new key; Wharf sends no mail.
import type { Deps } from '../../deps.js';
import { isUniqueViolation } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { UserRow } from '../../store/rows.js';
import type { GpgKeyRow } from '../../store/gpg_key_rows.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import { readGpgPublicKey } from './public_key.js';
import { gpgKeyErrors } from './validation.js';

const TAKEN = { fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] };

/** POST /user/gpg_keys, POST /users/:id/gpg_keys. */
export async function createGpgKey(deps: Deps, owner: UserRow, input: { key: string }): Promise<GpgKeyRow> {
  const key = input.key.trim();
  const parsed = await readGpgPublicKey(key);
  return deps.db.transaction(async (tx) => {
    const errors = await gpgKeyErrors(tx, key, parsed);
    if (Object.keys(errors).length || !parsed) throw new Invalid(errors);
    const stamp = now();
    const row = { user_id: owner.id, key, primary_keyid: parsed.primaryKeyid, fingerprint: parsed.fingerprint, created_at: stamp, updated_at: stamp };
    try {
      const id = await insertReturningId(tx, 'gpg_keys', row);
      if (parsed.subkeys.length) await tx('gpg_key_subkeys').insert(parsed.subkeys.map((s) => ({ gpg_key_id: id, ...s })));
      return { id, ...row };
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid(TAKEN);
      throw err;
    }
  });
}

/** DELETE /user/gpg_keys/:key_id and POST …/revoke (its subkeys go by the foreign key). */
export async function deleteGpgKey(deps: Deps, row: GpgKeyRow): Promise<void> {
  await deps.db('gpg_keys').where({ id: row.id }).delete();
}
