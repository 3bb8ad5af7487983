// Secrets stored encrypted at rest (a Pages domain's private key): AES-256-GCM under a key
// derived (HKDF-SHA256, per purpose) from the server secret, 32 random bytes in the file
// WHARF_SERVER_SECRET names (beside the database by default, `db/server_secret`, mode 0600). It is made on
// first use; several processes may start at once, so it is written to a private temporary file
// and linked into place, which only the first manages — every process then reads that one.
// A sealed value is `v1:` and base64 of IV (12 bytes), tag (16 bytes) and ciphertext; opening
// checks the tag, so a value changed in the database (or another server's) fails loudly.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';

type SecretConfig = Pick<Config, 'serverSecret'>;

/** Where the server secret lives (config.serverSecret). */
export function secretFile(config: SecretConfig): string {
  return config.serverSecret;
}

function createExclusive(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, crypto.randomBytes(32).toString('hex'));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

const keys = new Map<string, Buffer>();

/** The key of `purpose`, derived from the server secret (made when missing). */
function keyFor(config: SecretConfig, purpose: string): Buffer {
  const file = secretFile(config);
  const cacheKey = `${file}\0${purpose}`;
  const cached = keys.get(cacheKey);
  if (cached) return cached;
  if (!fs.existsSync(file)) createExclusive(file);
  const secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  if (secret.length < 32) throw new Error(`${file} holds no usable secret`);
  const key = Buffer.from(crypto.hkdfSync('sha256', secret, Buffer.alloc(0), `wharf ${purpose}`, 32));
  keys.set(cacheKey, key);
  return key;
}

/** A key for `purpose` (an HMAC's, say), derived from the server secret as the sealing keys are. */
export function derivedKey(config: SecretConfig, purpose: string): Buffer {
  return keyFor(config, purpose);
}

export function seal(config: SecretConfig, purpose: string, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyFor(config, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function open(config: SecretConfig, purpose: string, sealed: string): string {
  if (!sealed.startsWith('v1:')) throw new Error('not a sealed value');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyFor(config, purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
