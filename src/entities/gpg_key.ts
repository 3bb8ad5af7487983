// A user's GPG key as GitLab 10.8's GPGKey entity shows it: `{id, key, created_at}`, the key
// being the armored public key as stored.
import type { GpgKeyRow } from '../store/gpg_key_rows.js';

export function gpgKey(row: GpgKeyRow) {
  return { id: row.id, key: row.key, created_at: row.created_at };
}
