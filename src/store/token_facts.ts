// What a stored personal access token row says once read: its scopes (a JSON array in a
// text column) and whether it has expired. Pure readings of a row, shared by the token
// entity, the API's authentication and git's.
import type { TokenRow } from './rows.js';

/** The stored scopes; none when the column does not hold a JSON array. */
export function tokenScopes(row: TokenRow): string[] {
  try {
    const parsed = JSON.parse(row.scopes);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/** Expired at the end of its expiry day (UTC), as GitLab compares dates. */
export function tokenExpired(row: TokenRow, today = new Date().toISOString().slice(0, 10)): boolean {
  return !!row.expires_at && row.expires_at <= today;
}
