// Row type of the GPG key table (migrations/20261202000058_gpg_keys.ts).

export interface GpgKeyRow {
  id: number;
  user_id: number;
  /** The armored public key as given, stripped. */
  key: string;
  /** The primary key's 16-digit id, upper-case hex. */
  primary_keyid: string;
  /** The primary key's fingerprint, upper-case hex. */
  fingerprint: string;
  created_at: string;
  updated_at: string;
}
