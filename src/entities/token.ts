// ImpersonationToken: a personal access token as the admin API shows it. Only a digest is
// stored, so the secret (`token`) can be shown once, in the answer that creates it.
import type { TokenRow } from '../store/rows.js';
import { tokenExpired, tokenScopes } from '../store/token_facts.js';

export function impersonationToken(row: TokenRow, secret?: string) {
  return {
    id: row.id,
    name: row.name,
    revoked: !!row.revoked,
    created_at: row.created_at,
    scopes: tokenScopes(row),
    active: !row.revoked && !tokenExpired(row),
    expires_at: row.expires_at,
    ...(secret === undefined ? {} : { token: secret }),
    impersonation: !!row.impersonation,
  };
}
