// The GpgKey model's validations (GitLab 10.8), in its order and words: `key` present, unique
// and one armored public key block; then, only when `key` passed, a fingerprint and primary key
// id that could be read (else "can't be blank") and are nobody's key yet.
import type { Conn } from '../../store/db.js';
import type { GpgPublicKey } from './public_key.js';

const PREFIX = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
const SUFFIX = '-----END PGP PUBLIC KEY BLOCK-----';
const FORMAT_MESSAGE = `is invalid. A valid public GPG key begins with '${PREFIX}' and ends with '${SUFFIX}'`;

/** One block: the prefix, something that holds neither marker again, the suffix. */
function oneBlock(key: string): boolean {
  if (!key.startsWith(PREFIX) || !key.endsWith(SUFFIX)) return false;
  const inner = key.slice(PREFIX.length, key.length - SUFFIX.length);
  return inner.length > 0 && !inner.includes(PREFIX) && !inner.includes(SUFFIX);
}

async function taken(db: Conn, column: string, value: string): Promise<boolean> {
  return !!(await db('gpg_keys').where(column, value).first('id'));
}

/** `key` as stored (stripped); `parsed`, what could be read from it. */
export async function gpgKeyErrors(db: Conn, key: string, parsed: GpgPublicKey | null): Promise<Record<string, string[]>> {
  const keyErrors: string[] = [];
  if (key === '') keyErrors.push("can't be blank");
  else if (await taken(db, 'key', key)) keyErrors.push('has already been taken');
  if (!oneBlock(key)) keyErrors.push(FORMAT_MESSAGE);
  if (keyErrors.length) return { key: keyErrors };
  const errors: Record<string, string[]> = {};
  if (!parsed) return { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] };
  if (await taken(db, 'fingerprint', parsed.fingerprint)) errors.fingerprint = ['has already been taken'];
  if (await taken(db, 'primary_keyid', parsed.primaryKeyid)) errors.primary_keyid = ['has already been taken'];
  return errors;
}
