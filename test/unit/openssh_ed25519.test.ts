// The host key's OpenSSH format, written and read without the ssh2 package: OpenSSH's own
// ssh-keygen reads what Wharf writes (and derives the same public key), Wharf reads what
// ssh-keygen writes, and a key whose halves disagree, an encrypted key or another type is
// not taken for one.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { generateEd25519HostKey, readEd25519HostKey } from '../../src/transport/openssh_ed25519.js';

const run = promisify(execFile);

describe('OpenSSH Ed25519 host key format', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-ed25519-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes a key ssh-keygen reads, with the public half Wharf reports', async () => {
    const key = generateEd25519HostKey();
    const file = path.join(dir, 'key');
    fs.writeFileSync(file, key.privateText, { mode: 0o600 });
    const { stdout } = await run('ssh-keygen', ['-y', '-f', file]);
    expect(stdout.trim().split(' ').slice(0, 2)).to.deep.equal(['ssh-ed25519', key.publicBlob.toString('base64')]);
    expect(readEd25519HostKey(key.privateText)!.equals(key.publicBlob)).to.equal(true);
  });

  it("reads ssh-keygen's own key, and not an encrypted one nor an RSA one", async () => {
    const plain = path.join(dir, 'plain');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', plain]);
    const pub = fs.readFileSync(`${plain}.pub`, 'utf8').split(' ')[1];
    expect(readEd25519HostKey(fs.readFileSync(plain, 'utf8'))!.toString('base64')).to.equal(pub);

    const locked = path.join(dir, 'locked');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'secret phrase', '-f', locked]);
    expect(readEd25519HostKey(fs.readFileSync(locked, 'utf8'))).to.equal(null);
    const rsa = path.join(dir, 'rsa');
    await run('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-N', '', '-f', rsa]);
    expect(readEd25519HostKey(fs.readFileSync(rsa, 'utf8'))).to.equal(null);
  });

  it('refuses a key whose private seed does not derive its public half, and text that is no key', () => {
    const a = generateEd25519HostKey();
    const b = generateEd25519HostKey();
    // a's file with b's public key in both places it is stored: the seed gives it away.
    const body = (text: string) => Buffer.from(text.split('\n').slice(1, -2).join(''), 'base64');
    const mixed = Buffer.from(body(a.privateText));
    const aPub = a.publicBlob.subarray(a.publicBlob.length - 32);
    const bPub = b.publicBlob.subarray(b.publicBlob.length - 32);
    let at = mixed.indexOf(aPub);
    while (at >= 0) {
      bPub.copy(mixed, at);
      at = mixed.indexOf(aPub);
    }
    const forged = `-----BEGIN OPENSSH PRIVATE KEY-----\n${mixed.toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`;
    expect(readEd25519HostKey(forged)).to.equal(null);
    expect(readEd25519HostKey('not a key')).to.equal(null);
    const cut = `-----BEGIN OPENSSH PRIVATE KEY-----\n${body(a.privateText).subarray(0, 60).toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`;
    expect(readEd25519HostKey(cut)).to.equal(null);
  });
});
