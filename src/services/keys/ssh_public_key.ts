// Public SSH keys as GitLab 10.8 reads them (Gitlab::SSHPublicKey and the Key model): RSA, DSA,
// ECDSA and Ed25519 keys in the `authorized_keys` form `type base64 [comment]`, parsed by the
// ssh2 package's own key parser (the one the SSH server verifies signatures with, so a key the
// API accepts is exactly a key the server can check). What is Wharf's:
// - `sanitizeKey`: GitLab's Gitlab::SSHPublicKey.sanitize. A key pasted with line breaks in
//   its base64 is joined back together, and only the first word after it is kept as the
//   comment; text that never forms a valid key is returned as it came (validation then fails);
// - the fingerprint: the MD5 of the key blob as colon-separated hex ("3f:a2:…"), the form
//   GitLab 10.8 stores and shows (and `ssh-keygen -l -E md5` prints);
// - bits, for the key-size restrictions of the settings (GitLab's `*_key_restriction`).
// Everything is bounded: a key is at most a few kilobytes, so anything longer is not one.
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type Ssh2 from 'ssh2';
import type { ParsedKey } from 'ssh2';

/** ssh2, loaded with the first key read: loading it costs a process 17 MB (its WebAssembly poly1305). */
let ssh2Loaded: typeof Ssh2 | undefined;
function ssh2(): typeof Ssh2 {
  ssh2Loaded ??= createRequire(import.meta.url)('ssh2') as typeof Ssh2;
  return ssh2Loaded;
}

export type KeyTechnology = 'rsa' | 'dsa' | 'ecdsa' | 'ed25519';

/** The technologies in GitLab's order (ApplicationSetting::SUPPORTED_KEY_TYPES). */
export const KEY_TECHNOLOGIES: readonly KeyTechnology[] = ['rsa', 'dsa', 'ecdsa', 'ed25519'];

const TECHNOLOGY_OF: Readonly<Record<string, KeyTechnology>> = {
  'ssh-rsa': 'rsa',
  'ssh-dss': 'dsa',
  'ecdsa-sha2-nistp256': 'ecdsa',
  'ecdsa-sha2-nistp384': 'ecdsa',
  'ecdsa-sha2-nistp521': 'ecdsa',
  'ssh-ed25519': 'ed25519',
};

const ECDSA_BITS: Readonly<Record<string, number>> = {
  'ecdsa-sha2-nistp256': 256,
  'ecdsa-sha2-nistp384': 384,
  'ecdsa-sha2-nistp521': 521,
};

/** Longer than the base64 of any key OpenSSH makes (RSA 16384 is about 2,800 characters). */
const MAX_BLOB_TEXT = 16 * 1024;
/** A pasted key broken over lines has a few dozen pieces, not more. */
const MAX_PIECES = 128;
/** Padded base64, as OpenSSH writes it: one class, then at most two `=`, so no backtracking. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface PublicKey {
  /** The key type as written: `ssh-rsa`, `ecdsa-sha2-nistp256`, `ssh-ed25519`, … */
  type: string;
  technology: KeyTechnology;
  bits: number;
  /** The key blob (what an SSH client offers when it authenticates). */
  blob: Buffer;
  fingerprint: string;
  /** ssh2's parsed key, which verifies signatures. */
  parsed: ParsedKey;
}

/** GitLab 10.8's fingerprint of a key blob: MD5, colon-separated lower-case hex. */
export function fingerprintOf(blob: Buffer): string {
  return (crypto.createHash('md5').update(blob).digest('hex').match(/../g) ?? []).join(':');
}

function bitsOf(type: string, technology: KeyTechnology, parsed: ParsedKey): number {
  if (technology === 'ed25519') return 256;
  if (technology === 'ecdsa') return ECDSA_BITS[type];
  const details = crypto.createPublicKey(parsed.getPublicPEM()).asymmetricKeyDetails;
  return details?.modulusLength ?? 0;
}

/** The key of `type` and `base64`, or null when they are not a valid key of a supported type. */
function parseKeyParts(type: string, base64: string): PublicKey | null {
  const technology = TECHNOLOGY_OF[type];
  if (!technology || base64.length > MAX_BLOB_TEXT || base64.length % 4 !== 0 || !BASE64.test(base64)) return null;
  let parsed: ParsedKey | Error;
  try {
    parsed = ssh2().utils.parseKey(`${type} ${base64}`);
  } catch {
    return null;
  }
  if (parsed instanceof Error || !parsed || parsed.type !== type) return null;
  const blob = parsed.getPublicSSH();
  // The blob must be the whole of the base64: no trailing bytes the parser skipped.
  if (!Buffer.isBuffer(blob) || !blob.equals(Buffer.from(base64, 'base64'))) return null;
  let bits: number;
  try {
    bits = bitsOf(type, technology, parsed);
  } catch {
    return null;
  }
  return { type, technology, bits, blob, fingerprint: fingerprintOf(blob), parsed };
}

/** The key of stored or sanitized text (`type base64 [comment]`), or null. */
export function parsePublicKey(text: string): PublicKey | null {
  const [type, base64] = text.trim().split(/\s+/, 2);
  return type && base64 ? parseKeyParts(type, base64) : null;
}

/** Gitlab::SSHPublicKey.sanitize (see the header). */
export function sanitizeKey(text: string): string {
  const [type, ...pieces] = text.trim().split(/\s+/);
  if (!pieces.length) return text;
  let base64 = '';
  for (let i = 0; i < pieces.length && i < MAX_PIECES; i++) {
    base64 += pieces[i];
    if (base64.length > MAX_BLOB_TEXT) break;
    if (parseKeyParts(type, base64)) return [`${type} ${base64}`, pieces[i + 1]].filter((s) => s !== undefined).join(' ');
  }
  return text;
}
