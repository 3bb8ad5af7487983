// Git LFS with the stock `git lfs` client (Debian's git-lfs) against a real server, over HTTP and
// over SSH (`git-lfs-authenticate`): tracked files pushed (one of 200 MB) and cloned elsewhere
// byte for byte, a second push of the same content sending nothing, a fork downloading its
// parent's objects, a reporter who downloads but cannot upload, anonymous reads of a public
// project, and a lock of one user refusing another's push of that path (`locks/verify`).
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { bootServer, type TestServer } from '../helpers/server.js';
import { freePort } from '../helpers/free_port.js';
import { makeKey, type KeyPair } from '../helpers/ssh_keys.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER, REPORTER } from '../../src/policy/levels.js';
import { git, gitOk, repoUrl, tempDir } from './git_client.js';
import { sshClient, type SshClient } from './ssh_client.js';

const LFS_HOME = tempDir('wharf-lfs-home-');

/** git with LFS's filters and hooks installed (`git lfs install` in a home of its own). */
function lfsEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: LFS_HOME, GIT_LFS_SKIP_PUSH_LOCKS_VERIFY: '', ...extra };
}

const run = (args: string[], cwd?: string, env: Record<string, string> = {}) => git(args, { cwd, env: lfsEnv(env) });
const ok = (args: string[], cwd?: string, env: Record<string, string> = {}) => gitOk(args, { cwd, env: lfsEnv(env) });

/** A file of `bytes` pseudo-random bytes, written in chunks; answers its SHA-256. */
async function bigFile(file: string, bytes: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  let left = bytes;
  const chunks = Readable.from(
    (function* () {
      while (left > 0) {
        const chunk = crypto.randomBytes(Math.min(left, 4 * 1024 * 1024));
        left -= chunk.length;
        hash.update(chunk);
        yield chunk;
      }
    })(),
  );
  await pipeline(chunks, fs.createWriteStream(file));
  return hash.digest('hex');
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('Git LFS with the git-lfs client', function () {
  this.timeout(240_000);
  let s: TestServer;
  let c: SshClient;
  type Account = { user: any; token: string; key: KeyPair };
  let owner: Account;
  let reporter: Account;
  let dev: Account;
  let project: any;
  let bigOid: string;
  let otherSha: string;

  async function account(name: string): Promise<Account> {
    const { user, token } = await s.createUser(name);
    const key = await makeKey('ed25519', `${name}@laptop`);
    const r = await s.post('/user/keys', { token, json: { title: 'laptop', key: key.publicKey } });
    expect(r.status, r.text).to.equal(201);
    return { user, token, key };
  }

  const storedFile = (oid: string) => path.join(s.deps.repos.root, '@wharf', 'lfs', 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);

  before(async () => {
    await gitOk(['lfs', 'install', '--skip-repo'], { env: { HOME: LFS_HOME } });
    const port = await freePort();
    s = await bootServer({ WHARF_SSH_PORT: String(port), WHARF_SSH_HOST: '127.0.0.1' });
    c = sshClient(s);
    owner = await account('olga');
    reporter = await account('rita');
    dev = await account('dave');
    const r = await s.post('/projects', { token: owner.token, json: { name: 'designs', visibility: 'private' } });
    expect(r.status, r.text).to.equal(201);
    project = r.body;
    await insertMember(s.db, { sourceType: 'project', sourceId: project.id, userId: reporter.user.id, accessLevel: REPORTER });
    await insertMember(s.db, { sourceType: 'project', sourceId: project.id, userId: dev.user.id, accessLevel: DEVELOPER });
  });
  after(async () => s.close());

  it('pushes tracked files, one of 200 MB, and clones them elsewhere byte for byte', async () => {
    const work = tempDir('wharf-lfs-work-');
    await ok(['init', '-q', work]);
    await ok(['lfs', 'track', '*.bin'], work);
    fs.writeFileSync(path.join(work, 'small.bin'), 'a small binary\n');
    fs.writeFileSync(path.join(work, 'other.bin'), crypto.randomBytes(70_000));
    otherSha = sha256(path.join(work, 'other.bin'));
    bigOid = await bigFile(path.join(work, 'big.bin'), 200 * 1024 * 1024);
    fs.writeFileSync(path.join(work, 'README.md'), '# designs\n');
    await ok(['add', '-A'], work);
    await ok(['commit', '-q', '-m', 'designs'], work);
    const url = repoUrl(s, project.path_with_namespace, owner.token, 'olga');
    const pushed = await run(['push', '-q', url, 'master'], work);
    expect(pushed.code, pushed.stderr).to.equal(0);
    expect(sha256(storedFile(bigOid))).to.equal(bigOid);

    const clone = path.join(tempDir(), 'c');
    await ok(['clone', '-q', repoUrl(s, project.path_with_namespace, reporter.token, 'rita'), clone]);
    for (const name of ['small.bin', 'other.bin', 'big.bin']) expect(sha256(path.join(clone, name)), name).to.equal(sha256(path.join(work, name)));
    // In the repository itself, the files are pointers.
    const pointer = await ok(['show', 'HEAD:big.bin'], clone);
    expect(pointer).to.include(`oid sha256:${bigOid}`);

    const stats = await s.get(`/projects/${project.id}`, { token: owner.token, query: { statistics: true } });
    expect(stats.body.statistics.lfs_objects_size).to.equal(200 * 1024 * 1024 + 70_000 + 'a small binary\n'.length);
    // The API's raw files and blobs are what the repository holds: the pointer (as 10.8's API).
    const raw = await s.get(`/projects/${project.id}/repository/files/big.bin/raw`, { token: owner.token, query: { ref: 'master' } });
    expect(raw.status).to.equal(200);
    expect(raw.text).to.equal(pointer);
    const sha = (await ok(['rev-parse', 'HEAD:big.bin'], clone)).trim();
    expect((await s.get(`/projects/${project.id}/repository/blobs/${sha}/raw`, { token: owner.token })).text).to.equal(pointer);
  });

  it('uploads nothing on a second push of the same content', async () => {
    const before = fs.statSync(storedFile(bigOid));
    const clone = path.join(tempDir(), 'c');
    await ok(['clone', '-q', repoUrl(s, project.path_with_namespace, dev.token, 'dave'), clone]);
    fs.copyFileSync(path.join(clone, 'big.bin'), path.join(clone, 'copy.bin'));
    await ok(['add', '-A'], clone);
    await ok(['commit', '-q', '-m', 'a copy'], clone);
    const pushed = await run(['push', '-q', 'origin', 'master:copy'], clone);
    expect(pushed.code, pushed.stderr).to.equal(0);
    // An upload of a stored object touches its file (git/lfs_store.ts): it was not touched.
    expect(fs.statSync(storedFile(bigOid)).mtimeMs).to.equal(before.mtimeMs);
  });

  it("lets a fork clone its parent's objects", async () => {
    const fork = await s.post(`/projects/${project.id}/fork`, { token: dev.token });
    expect(fork.status, fork.text).to.equal(201);
    const clone = path.join(tempDir(), 'c');
    await ok(['clone', '-q', repoUrl(s, fork.body.path_with_namespace, dev.token, 'dave'), clone]);
    expect(sha256(path.join(clone, 'other.bin'))).to.equal(otherSha);
    expect(sha256(path.join(clone, 'big.bin'))).to.equal(bigOid);
    expect(fs.readFileSync(path.join(clone, 'small.bin'), 'utf8')).to.equal('a small binary\n');
    const stats = await s.get(`/projects/${fork.body.id}`, { token: dev.token, query: { statistics: true } });
    expect(stats.body.statistics.lfs_objects_size).to.be.above(200 * 1024 * 1024);
  });

  it('lets a reporter download but not upload', async () => {
    const clone = path.join(tempDir(), 'c');
    await ok(['clone', '-q', repoUrl(s, project.path_with_namespace, reporter.token, 'rita'), clone]);
    fs.writeFileSync(path.join(clone, 'new.bin'), 'from a reporter\n');
    await ok(['add', '-A'], clone);
    await ok(['commit', '-q', '-m', 'new'], clone);
    const pushed = await run(['push', 'origin', 'master:reporter'], clone);
    expect(pushed.code).to.not.equal(0);
    expect(pushed.stderr).to.match(/403|Access forbidden|Authorization error/i);
    const oid = crypto.createHash('sha256').update('from a reporter\n').digest('hex');
    expect(fs.existsSync(storedFile(oid))).to.equal(false);
  });

  it('serves a public project to anonymous clients, and refuses a private one', async () => {
    const r = await s.post('/projects', { token: owner.token, json: { name: 'open', visibility: 'public' } });
    const work = tempDir('wharf-lfs-work-');
    await ok(['init', '-q', work]);
    await ok(['lfs', 'track', '*.bin'], work);
    fs.writeFileSync(path.join(work, 'logo.bin'), 'public bytes\n');
    await ok(['add', '-A'], work);
    await ok(['commit', '-q', '-m', 'logo'], work);
    await ok(['push', '-q', repoUrl(s, r.body.path_with_namespace, owner.token, 'olga'), 'master'], work);
    const clone = path.join(tempDir(), 'c');
    await ok(['clone', '-q', repoUrl(s, r.body.path_with_namespace), clone]);
    expect(fs.readFileSync(path.join(clone, 'logo.bin'), 'utf8')).to.equal('public bytes\n');

    const batch = (fullPath: string, token?: string) =>
      fetch(`${s.url}/${fullPath}.git/info/lfs/objects/batch`, {
        method: 'POST',
        headers: {
          Accept: 'application/vnd.git-lfs+json',
          'Content-Type': 'application/vnd.git-lfs+json',
          ...(token ? { Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` } : {}),
        },
        body: JSON.stringify({ operation: 'download', objects: [{ oid: bigOid, size: 1 }] }),
      });
    // Anonymous: git's 401 challenge (so that the client asks for credentials); a signed-in
    // stranger: 404, as if the project did not exist.
    const anonymous = await batch(project.path_with_namespace);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.equal('Basic realm="GitLab"');
    const stranger = await s.createUser('stranger');
    const hidden = await batch(project.path_with_namespace, stranger.token);
    expect(hidden.status).to.equal(404);
    expect(await hidden.json()).to.deep.equal({ message: 'Not found.', documentation_url: `${s.url}/help` });
    const missing = await batch('nobody/nothing', stranger.token);
    expect(missing.status).to.equal(404);
  });

  it('refuses a push of a path another user has locked (locks/verify), and allows it once unlocked', async () => {
    const mine = path.join(tempDir(), 'owner');
    await ok(['clone', '-q', repoUrl(s, project.path_with_namespace, owner.token, 'olga'), mine]);
    const locked = await ok(['lfs', 'lock', 'small.bin'], mine);
    expect(locked).to.include('Locked small.bin');
    const theirs = path.join(tempDir(), 'dev');
    await ok(['clone', '-q', repoUrl(s, project.path_with_namespace, dev.token, 'dave'), theirs]);
    await ok(['config', 'lfs.locksverify', 'true'], theirs);
    fs.writeFileSync(path.join(theirs, 'small.bin'), 'changed while locked\n');
    await ok(['commit', '-q', '-am', 'change a locked file'], theirs);
    const refused = await run(['push', 'origin', 'master:dev-work'], theirs);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('Cannot update locked files.'); // git-lfs, after locks/verify named it theirs
    const list = await ok(['lfs', 'locks'], mine);
    expect(list).to.include('small.bin').and.include('Olga');
    await ok(['lfs', 'unlock', 'small.bin'], mine);
    const pushed = await run(['push', 'origin', 'master:dev-work'], theirs);
    expect(pushed.code, pushed.stderr).to.equal(0);
  });

  it('pushes and clones over SSH, the client getting HTTP credentials from git-lfs-authenticate', async () => {
    const sshUrl = project.ssh_url_to_repo as string;
    const work = path.join(tempDir(), 'ssh');
    const env = { ...lfsEnv(), GIT_SSH_COMMAND: c.command(dev.key.file) };
    await gitOk(['clone', '-q', sshUrl, work], { env });
    expect(fs.readFileSync(path.join(work, 'small.bin'), 'utf8')).to.equal('a small binary\n');
    fs.writeFileSync(path.join(work, 'over-ssh.bin'), 'sent over ssh\n');
    await gitOk(['add', '-A'], { cwd: work, env });
    await gitOk(['commit', '-q', '-m', 'over ssh'], { cwd: work, env });
    await gitOk(['push', '-q', 'origin', 'master:over-ssh'], { cwd: work, env });
    const oid = crypto.createHash('sha256').update('sent over ssh\n').digest('hex');
    expect(fs.readFileSync(storedFile(oid), 'utf8')).to.equal('sent over ssh\n');

    // What git-lfs-authenticate answers: the LFS URL and a Basic header with a 30-minute token.
    const answer = await c.ssh([`git@127.0.0.1`, `git-lfs-authenticate ${project.path_with_namespace}.git download`], reporter.key.file);
    expect(answer.code, answer.stderr).to.equal(0);
    const json = JSON.parse(answer.stdout);
    expect(json.href).to.equal(`${s.url}/${project.path_with_namespace}.git/info/lfs/`);
    expect(json.expires_in).to.equal(1800);
    const [login] = Buffer.from(json.header.Authorization.slice('Basic '.length), 'base64').toString().split(':');
    expect(login).to.equal('rita');
    // The reporter's token downloads and cannot upload.
    const post = (operation: string) =>
      fetch(`${json.href}objects/batch`, {
        method: 'POST',
        headers: { ...json.header, 'Content-Type': 'application/vnd.git-lfs+json' },
        body: JSON.stringify({ operation, objects: [{ oid, size: 14 }] }),
      });
    const down = await post('download');
    expect(down.status).to.equal(200);
    expect((await down.json()).objects[0].actions.download.href).to.equal(`${json.href}../gitlab-lfs/objects/${oid}`.replace('/info/lfs/../', '/'));
    expect((await post('upload')).status).to.equal(403);
    const stranger = await account('stanley');
    const refused = await c.ssh([`git@127.0.0.1`, `git-lfs-authenticate '${project.path_with_namespace}.git' download`], stranger.key.file);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.include('GitLab: The project you were looking for could not be found.');
  });
});
