// The SSH host key's own file format, for the one kind of key Wharf makes: an unencrypted
// Ed25519 key in OpenSSH's `openssh-key-v1` form (PROTOCOL.key in OpenSSH's source), the form
// `ssh-keygen -t ed25519` writes and every SSH server and client reads.
//
// Why not the ssh2 package, which reads and writes it too: loading ssh2 instantiates its
// WebAssembly poly1305 at once, 17 MB of memory a process carries for good (an idle
// server stays under 80 MB). With this, a process loads ssh2 only for its first SSH connection or
// public key; a host key of another kind (an administrator's RSA key, an encrypted one) is
// still read by ssh2 (ssh_host_key.ts).
//
// Reading is bounded (every length checked against what is left) and checks the key really
// is one: the public half stored must be the one its private seed derives.
import crypto from 'node:crypto';

const MAGIC = Buffer.from('openssh-key-v1\0', 'latin1');
const KEY_TYPE = 'ssh-ed25519';
const BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----';
const END = '-----END OPENSSH PRIVATE KEY-----';
/** PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface Ed25519HostKey {
  /** The private key file's text. */
  privateText: string;
  /** The public key blob (what `ssh-ed25519 <base64>` encodes). */
  publicBlob: Buffer;
}

function sshString(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return Buffer.concat([length, body]);
}

function uint32(n: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
}

function publicBlobOf(pub: Buffer): Buffer {
  return Buffer.concat([sshString(KEY_TYPE), sshString(pub)]);
}

function derivedPublic(seed: Buffer): Buffer {
  const key = crypto.createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const jwk = crypto.createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(jwk.x as string, 'base64url');
}

/** A new key, as `ssh-keygen -t ed25519 -N ''` would write it. */
export function generateEd25519HostKey(comment = ''): Ed25519HostKey {
  const { privateKey } = crypto.generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d as string, 'base64url');
  const pub = Buffer.from(jwk.x as string, 'base64url');
  const check = crypto.randomBytes(4);
  const secret = [check, check, sshString(KEY_TYPE), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString(comment)];
  let section = Buffer.concat(secret);
  const padding = (8 - (section.length % 8)) % 8;
  section = Buffer.concat([section, Buffer.from(Array.from({ length: padding }, (_, i) => i + 1))]);
  const whole = Buffer.concat([MAGIC, sshString('none'), sshString('none'), sshString(''), uint32(1), sshString(publicBlobOf(pub)), sshString(section)]);
  const base64 = whole.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += 70) lines.push(base64.slice(i, i + 70));
  return { privateText: `${BEGIN}\n${lines.join('\n')}\n${END}\n`, publicBlob: publicBlobOf(pub) };
}

/** Reads the SSH wire format's fields in order; null once anything is out of bounds. */
class Fields {
  private at = 0;
  constructor(private readonly data: Buffer) {}
  uint32(): number | null {
    if (this.at + 4 > this.data.length) return null;
    const n = this.data.readUInt32BE(this.at);
    this.at += 4;
    return n;
  }
  string(): Buffer | null {
    const length = this.uint32();
    if (length === null || length > this.data.length - this.at) return null;
    const out = this.data.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }
}

/**
 * The public key blob of an unencrypted OpenSSH Ed25519 private key text whose halves agree;
 * null for any other text (another key type, an encrypted key, or no key at all).
 */
export function readEd25519HostKey(text: string): Buffer | null {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) return null;
  const whole = Buffer.from(text.slice(begin + BEGIN.length, end).replace(/\s/g, ''), 'base64');
  if (!whole.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const fields = new Fields(whole.subarray(MAGIC.length));
  const cipher = fields.string();
  const kdf = fields.string();
  fields.string(); // kdf options
  if (cipher?.toString('latin1') !== 'none' || kdf?.toString('latin1') !== 'none' || fields.uint32() !== 1) return null;
  const publicBlob = fields.string();
  const section = fields.string();
  if (!publicBlob || !section) return null;
  const secret = new Fields(section);
  const check1 = secret.uint32();
  const check2 = secret.uint32();
  const type = secret.string();
  const pub = secret.string();
  const pair = secret.string();
  if (check1 === null || check1 !== check2 || type?.toString('latin1') !== KEY_TYPE || pub?.length !== 32 || pair?.length !== 64) return null;
  if (!pair.subarray(32).equals(pub) || !publicBlob.equals(publicBlobOf(pub))) return null;
  return derivedPublic(pair.subarray(0, 32)).equals(pub) ? Buffer.from(publicBlob) : null;
}
