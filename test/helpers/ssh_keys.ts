// SSH key pairs made by the real `ssh-keygen`, in a private temporary folder: the public key
// text a client pastes into the API, the private key file `ssh -i` uses, and the MD5
// fingerprint as ssh-keygen prints it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-keys-'));
let n = 0;

export interface KeyPair {
  /** The private key file (mode 0600). */
  file: string;
  /** The public key line: `type base64 comment`. */
  publicKey: string;
  /** `ssh-keygen -l -E md5` without its `MD5:` prefix. */
  fingerprint: string;
}

export type KeyKind = 'ed25519' | 'rsa' | 'ecdsa';

export async function makeKey(kind: KeyKind = 'ed25519', comment = `test-${kind}@wharf`): Promise<KeyPair> {
  const file = path.join(dir, `key-${++n}-${kind}`);
  const bits = kind === 'rsa' ? ['-b', '2048'] : [];
  await run('ssh-keygen', ['-q', '-t', kind, ...bits, '-N', '', '-C', comment, '-f', file]);
  const publicKey = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'md5', '-f', `${file}.pub`]);
  const fingerprint = stdout.split(' ')[1].replace(/^MD5:/, '');
  return { file, publicKey, fingerprint };
}
