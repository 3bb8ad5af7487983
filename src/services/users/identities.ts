// A user's external identity as GitLab 10.8's users API sets it: `provider` and `extern_uid`
// given together on POST /users (built with the user) or PUT /users/:id (the identity of that
// provider updated, or a new one added). The Identity model refuses a blank provider and an
// extern_uid another user already holds for the provider (compared without case); the user then
// fails validation with `identities: ["is invalid"]`. 10.8's PUT ignored that failure and
// answered 200 with the identity unchanged; here it is refused the same way as on POST, so a
// 2xx means the identity is stored. Written in the caller's transaction, with the user row.
import type { Conn, Tx } from '../../store/db.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';

export interface IdentityInput {
  provider: string;
  externUid: string;
}

const INVALID = { identities: ['is invalid'] };

/** Refuses a blank provider or an extern_uid another user holds for it (Invalid, 400). */
export async function checkIdentity(tx: Conn, userId: number | null, identity: IdentityInput): Promise<void> {
  if (identity.provider.trim() === '') throw new Invalid(INVALID);
  if (identity.externUid === '') return; // allow_blank
  const holder = tx('identities').where('provider', identity.provider).whereRaw('lower(extern_uid) = ?', [identity.externUid.toLowerCase()]);
  if (userId !== null) holder.whereNot('user_id', userId);
  if (await holder.first('id')) throw new Invalid(INVALID);
}

/** Adds the user's identity for the provider, or changes its extern_uid. */
export async function saveIdentity(tx: Tx, userId: number, identity: IdentityInput): Promise<void> {
  await checkIdentity(tx, userId, identity);
  const stamp = now();
  const existing = await tx('identities').where({ user_id: userId, provider: identity.provider }).first('id');
  if (existing) {
    await tx('identities').where({ id: existing.id }).update({ extern_uid: identity.externUid, updated_at: stamp });
  } else {
    await tx('identities').insert({ user_id: userId, provider: identity.provider, extern_uid: identity.externUid, created_at: stamp, updated_at: stamp });
  }
}
