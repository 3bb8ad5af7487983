// Finding a user's impersonation tokens (GitLab 10.8's `user.personal_access_tokens.impersonation`):
// by id, and listed oldest first, all of them or only the active or the inactive ones. A token
// is inactive once revoked or from its expiry day on (PersonalAccessToken's `active` scope).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { TokenRow } from '../store/rows.js';
import { now } from '../store/time.js';

export type TokenState = 'all' | 'active' | 'inactive';

const today = () => now().slice(0, 10);

function impersonationTokens(db: Conn, userId: number): Knex.QueryBuilder {
  return db('personal_access_tokens').where({ user_id: userId, impersonation: true });
}

/** The user's impersonation tokens in the state asked for, by id. */
export function impersonationTokensQuery(db: Conn, userId: number, state: TokenState): Knex.QueryBuilder {
  const q = impersonationTokens(db, userId).orderBy('id', 'asc');
  if (state === 'active') q.where('revoked', false).where((w) => w.whereNull('expires_at').orWhere('expires_at', '>', today()));
  if (state === 'inactive') q.where((w) => w.where('revoked', true).orWhere('expires_at', '<=', today()));
  return q;
}

export async function findImpersonationToken(db: Conn, userId: number, id: number): Promise<TokenRow | undefined> {
  return impersonationTokens(db, userId).where({ id }).first();
}
