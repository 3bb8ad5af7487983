// The SSH host key: made once (0600, with its .pub), kept across starts, the same for every
// process that starts at once, and never replaced when unreadable.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { pino } from 'pino';
import { loadHostKey } from '../../src/transport/ssh_host_key.js';

const run = promisify(execFile);
const log = pino({ level: 'silent' });
const MODULE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/transport/ssh_host_key.js');

describe('SSH host key', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-hostkey-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is made on first start, mode 0600, and read back unchanged later', () => {
    const file = path.join(dir, 'db', 'ssh_host_ed25519_key');
    const first = loadHostKey(file, log);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    expect(fs.readFileSync(`${file}.pub`, 'utf8')).to.match(/^ssh-ed25519 [A-Za-z0-9+/=]+/);
    expect(loadHostKey(file, log)).to.equal(first);
    expect(fs.readdirSync(path.dirname(file)).sort()).to.deep.equal(['ssh_host_ed25519_key', 'ssh_host_ed25519_key.pub']);
  });

  it('tightens a key readable by others, and refuses a file that is no key', () => {
    const file = path.join(dir, 'key');
    loadHostKey(file, log);
    fs.chmodSync(file, 0o644);
    loadHostKey(file, log);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    fs.writeFileSync(file, 'not a key', { mode: 0o600 });
    expect(() => loadHostKey(file, log)).to.throw('is not a usable SSH host key');
    expect(fs.readFileSync(file, 'utf8')).to.equal('not a key');
  });

  it('is one key for processes that start at the same time', async () => {
    const file = path.join(dir, 'ssh_host_ed25519_key');
    const script = `import { loadHostKey } from ${JSON.stringify(MODULE)}; import { pino } from 'pino';
      process.stdout.write(loadHostKey(${JSON.stringify(file)}, pino({ level: 'silent' })));`;
    const cwd = path.dirname(MODULE);
    const outputs = await Promise.all(Array.from({ length: 4 }, () => run(process.execPath, ['--input-type=module', '-e', script], { cwd })));
    const keys = new Set(outputs.map((o) => o.stdout));
    expect(keys.size).to.equal(1);
    expect(fs.readFileSync(file, 'utf8')).to.equal([...keys][0]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
  });
});
