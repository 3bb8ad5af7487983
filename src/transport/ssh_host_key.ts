// The SSH server's host key: an Ed25519 key made on first start and kept (`WHARF_SSH_HOST_KEY`,
// by default `db/ssh_host_ed25519_key` beside the database, mode 0600, with its `.pub`), so
// clients see the same host on every start and `known_hosts` keeps working. Several processes may start at once (worker
// processes): the key is written to a private temporary file and linked into place, which
// fails for all but the first; every process then reads the one that won. An unreadable key
// stops the start (it is never silently replaced: clients would see a new host).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import ssh2 from 'ssh2';



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
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (writeExclusive(file, pair.private, 0o600)) {
      writeExclusive(`${file}.pub`, `${pair.public}\n`, 0o644);
      log.info({ file }, 'generated the SSH host key');
    }
  }
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) {
    fs.chmodSync(file, 0o600);
    log.warn({ file, mode: mode.toString(8) }, 'the SSH host key was readable by others; made it 0600');
  }
  const text = fs.readFileSync(file, 'utf8');
  const parsed = ssh2.utils.parseKey(text);
  if (parsed instanceof Error || !parsed || !parsed.isPrivateKey()) {
    throw new Error(`${file} is not a usable SSH host key (${parsed instanceof Error ? parsed.message : 'not a private key'})`);
  }
  log.info({ file, fingerprint: sha256Fingerprint(parsed.getPublicSSH()) }, 'SSH host key');
  return text;
}
