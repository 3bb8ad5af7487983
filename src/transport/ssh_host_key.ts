// The SSH server's host key: an Ed25519 key made on first start and kept (`WHARF_SSH_HOST_KEY`,
// by default `db/ssh_host_ed25519_key` beside the database, mode 0600, with its `.pub`), so
// clients see the same host on every start and `known_hosts` keeps working. Several processes may start at once (worker
// processes): the key is written to a private temporary file and linked into place, which
// fails for all but the first; every process then reads the one that won. An unreadable key
// stops the start (it is never silently replaced: clients would see a new host).
//
// The key Wharf makes is written and checked by openssh_ed25519.ts, without the ssh2 package
// (whose loading costs an idle process 17 MB); a key of another kind put there by an
// administrator is checked by ssh2.
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type Ssh2 from 'ssh2';
import { generateEd25519HostKey, readEd25519HostKey } from './openssh_ed25519.js';

/** OpenSSH's SHA256 fingerprint of a public key blob, to tell users what to expect. */
function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${crypto.createHash('sha256').update(blob).digest('base64').replace(/=/g, '')}`;
}

function writeExclusive(file: string, text: string, mode: number): boolean {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** The host key (OpenSSH private key text), made on first start. */
export function loadHostKey(file: string, log: Logger): string {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const pair = generateEd25519HostKey();
    if (writeExclusive(file, pair.privateText, 0o600)) {
      writeExclusive(`${file}.pub`, `ssh-ed25519 ${pair.publicBlob.toString('base64')}\n`, 0o644);
      log.info({ file }, 'generated the SSH host key');
    }
  }
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) {
    fs.chmodSync(file, 0o600);
    log.warn({ file, mode: mode.toString(8) }, 'the SSH host key was readable by others; made it 0600');
  }
  const text = fs.readFileSync(file, 'utf8');
  const blob = readEd25519HostKey(text) ?? publicBlobBySsh2(file, text);
  log.info({ file, fingerprint: sha256Fingerprint(blob) }, 'SSH host key');
  return text;
}

/** The public blob of a host key of another kind than Wharf's own, read by ssh2; throws when it is none. */
function publicBlobBySsh2(file: string, text: string): Buffer {
  const ssh2 = createRequire(import.meta.url)('ssh2') as typeof Ssh2;
  const parsed = ssh2.utils.parseKey(text);
  if (parsed instanceof Error || !parsed || !parsed.isPrivateKey()) {
    throw new Error(`${file} is not a usable SSH host key (${parsed instanceof Error ? parsed.message : 'not a private key'})`);
  }
  return parsed.getPublicSSH();
}
