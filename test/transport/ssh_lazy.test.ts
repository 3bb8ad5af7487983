// The SSH port of a server process: it listens from the start, but the ssh2 package (whose
// loading costs 17 MB) is loaded only when the first client connects; that client is served
// the host key Wharf made, as OpenSSH's ssh-keyscan sees it. The process's memory map shows
// whether ssh2's native binding has been loaded.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ChildServer, removeDataDir, tempDataDir } from '../helpers/child_server.js';
import { freePort } from '../helpers/free_port.js';

const run = promisify(execFile);

function loadedSsh2(pid: number): boolean {
  return fs.readFileSync(`/proc/${pid}/maps`, 'utf8').includes('sshcrypto.node');
}

describe('SSH port of an idle server', () => {
  let dir: string;
  let server: ChildServer | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
    await removeDataDir(dir);
  });

  it('loads ssh2 with the first connection, which gets the host key Wharf made', async () => {
    dir = tempDataDir();
    const port = await freePort();
    const hostKey = path.join(dir, 'ssh_host_ed25519_key');
    server = await ChildServer.start(dir, { WHARF_SSH_PORT: String(port), WHARF_SSH_HOST_KEY: hostKey });
    const pid = server.child.pid!;
    expect(loadedSsh2(pid)).to.equal(false);

    const { stdout } = await run('ssh-keyscan', ['-T', '20', '-t', 'ed25519', '-p', String(port), '127.0.0.1']);
    const offered = stdout.split('\n').find((line) => line.includes('ssh-ed25519'))!;
    const stored = fs.readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ');
    expect(offered.split(' ').slice(1, 3)).to.deep.equal(stored.slice(0, 2));
    expect(loadedSsh2(pid)).to.equal(true);
  });
});
