// git over SSH with the real OpenSSH client and git: users' keys and deploy keys (read-only
// and can_push), the same access and push checks as smart HTTP with GitLab's messages on the
// client's screen, the same after-push effects (events, default branch), the greeting, and
// the strict parsing of the command an SSH client asks to run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { makeKey, type KeyPair } from '../helpers/ssh_keys.js';
import { git as bareGit } from '../helpers/bare_git.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER, MASTER } from '../../src/policy/levels.js';
import type { UserRow } from '../../src/store/rows.js';
import { commit, gitOk, repoUrl, tempDir, workRepo } from './git_client.js';
import { sshClient, type SshClient } from './ssh_client.js';
import { freePort } from '../helpers/free_port.js';

type Account = { user: UserRow; token: string; key: KeyPair };
type Project = { id: number; path: string; ssh: string; gitdir: string };

const DENIED = 'Permission denied (publickey)';
const REJECTED = (ref: string) => `! [remote rejected] ${ref} -> ${ref} (pre-receive hook declined)`;

describe('git over SSH', function () {
  this.timeout(120_000);
  let s: TestServer;
  let c: SshClient;
  let owner: Account;
  let dev: Account;
  let stranger: Account;
  let app: Project; // private, owner's; dev is a developer
  let pub: Project; // public, owner's
  let other: Project; // private, owner's, no deploy keys
  let readOnly: KeyPair;
  let writer: KeyPair;

  const refs = (p: Project) => bareGit(p.gitdir, ['for-each-ref', '--format=%(refname) %(objectname)']);
  const head = (p: Project, ref = 'refs/heads/master') => bareGit(p.gitdir, ['rev-parse', ref]).trim();

  async function account(name: string, kind: 'ed25519' | 'rsa' | 'ecdsa'): Promise<Account> {
    const { user, token } = await s.createUser(name);
    const key = await makeKey(kind, `${name}@laptop`);
    const r = await s.post('/user/keys', { token, json: { title: `${name}'s key`, key: key.publicKey } });
    expect(r.status, r.text).to.equal(201);
    return { user, token, key };
  }

  async function project(name: string, visibility: string): Promise<Project> {
    const r = await s.post('/projects', { token: owner.token, json: { name, visibility } });
    expect(r.status, r.text).to.equal(201);
    return { id: r.body.id, path: r.body.path_with_namespace, ssh: r.body.ssh_url_to_repo, gitdir: s.deps.repos.pathFor(r.body.path_with_namespace) };
  }

  before(async () => {
    const port = await freePort();
    s = await bootServer({ WHARF_SSH_PORT: String(port), WHARF_SSH_HOST: '127.0.0.1' });
    c = sshClient(s);
    owner = await account('olga', 'ed25519');
    dev = await account('dev', 'rsa');
    stranger = await account('stan', 'ecdsa');
    app = await project('app', 'private');
    pub = await project('pub', 'public');
    other = await project('other', 'private');
    await insertMember(s.db, { sourceType: 'project', sourceId: app.id, userId: dev.user.id, accessLevel: DEVELOPER });
    [readOnly, writer] = await Promise.all([makeKey('ed25519', 'ro@ci'), makeKey('ecdsa', 'rw@ci')]);
    for (const [key, canPush] of [
      [readOnly, false],
      [writer, true],
    ] as const) {
      const r = await s.post(`/projects/${app.id}/deploy_keys`, { token: owner.token, json: { title: 'ci', key: key.publicKey, can_push: canPush } });
      expect(r.status, r.text).to.equal(201);
    }
  });
  after(async () => s.close());

  describe('the server', () => {
    it('advertises ssh_url_to_repo with WHARF_SSH_HOST and WHARF_SSH_PORT', () => {
      expect(app.ssh).to.equal(`ssh://git@127.0.0.1:${c.port}/${app.path}.git`);
    });

    it('keeps its host key under db/, mode 0600 (the client checks it strictly)', () => {
      const file = s.deps.config.sshHostKey;
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
      expect(fs.readFileSync(file, 'utf8')).to.contain('BEGIN OPENSSH PRIVATE KEY');
    });

    it('greets an interactive shell with GitLab’s line and closes', async () => {
      const r = await c.ssh(['-T', 'git@127.0.0.1'], owner.key.file);
      expect(r.code).to.equal(0);
      expect(r.stdout).to.equal('Welcome to GitLab, @olga!\n');
      const tty = await c.ssh(['-tt', 'git@127.0.0.1'], dev.key.file);
      expect(tty.stdout).to.contain('Welcome to GitLab, @dev!');
      const key = await c.ssh(['-T', 'git@127.0.0.1'], readOnly.file);
      expect(key.stdout).to.equal('Welcome to GitLab, @olga!\n'); // a deploy key's creator
    });

    it('refuses no key, an unknown key and another user name', async () => {
      const none = await c.ssh(['-T', 'git@127.0.0.1'], null);
      expect(none.code).to.equal(255);
      expect(none.stderr).to.contain(DENIED);
      const unknown = await makeKey();
      const u = await c.ssh(['-T', 'git@127.0.0.1'], unknown.file);
      expect(u.code).to.equal(255);
      expect(u.stderr).to.contain(DENIED);
      const root = await c.ssh(['-T', 'root@127.0.0.1'], owner.key.file);
      expect(root.code).to.equal(255);
      expect(root.stderr).to.contain(DENIED);
      const clone = await c.git(['clone', app.ssh, path.join(tempDir(), 'x')], unknown.file);
      expect(clone.code).to.not.equal(0);
      expect(clone.stderr).to.contain(DENIED);
    });
  });

  describe('users’ keys', () => {
    it('pushes to an empty project: default branch, pushed event by the key’s user', async () => {
      const work = await workRepo([{ 'README.md': '# app\n' }, { 'a.txt': '1\n' }]);
      const r = await c.git(['push', app.ssh, 'master'], owner.key.file, { cwd: work });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.contain('* [new branch]      master -> master');
      expect(head(app)).to.equal((await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim());
      const project = await s.get(`/projects/${app.id}`, { token: owner.token });
      expect(project.body.default_branch).to.equal('master');
      const events = await s.get(`/projects/${app.id}/events`, { token: owner.token });
      const pushed = events.body.find((e: { action_name: string }) => e.action_name === 'pushed new');
      expect(pushed).to.include({ author_username: 'olga' });
      expect(pushed.push_data).to.include({ ref: 'master', ref_type: 'branch', commit_count: 2, action: 'created' });
    });

    it('clones and fetches (protocol v2 and v0), and serves git archive --remote', async () => {
      const dir = path.join(tempDir(), 'clone');
      const r = await c.git(['clone', app.ssh, dir], dev.key.file);
      expect(r.code, r.stderr).to.equal(0);
      expect((await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim()).to.equal(head(app));
      const v0 = await c.git(['-c', 'protocol.version=0', 'ls-remote', app.ssh], dev.key.file, { env: { GIT_TRACE_PACKET: '1' } });
      expect(v0.stdout).to.contain(`${head(app)}\trefs/heads/master`);
      expect(v0.stderr).to.not.contain('< version 2');
      const v2 = await c.git(['-c', 'protocol.version=2', 'ls-remote', app.ssh], dev.key.file, { env: { GIT_TRACE_PACKET: '1' } });
      expect(v2.stdout).to.contain(`${head(app)}\trefs/heads/master`);
      expect(v2.stderr).to.contain('< version 2'); // GIT_PROTOCOL went through the env request

      const work = await workRepo();
      await gitOk(['fetch', '-q', repoUrl(s, app.path, owner.token), 'master'], { cwd: work });
      await gitOk(['checkout', '-q', '-B', 'master', 'FETCH_HEAD'], { cwd: work });
      const sha = await commit(work, { 'b.txt': 'two\n' }, 'over http');
      await gitOk(['push', '-q', repoUrl(s, app.path, owner.token), 'master'], { cwd: work });
      const fetched = await c.git(['fetch', 'origin'], dev.key.file, { cwd: dir });
      expect(fetched.code, fetched.stderr).to.equal(0);
      expect((await gitOk(['rev-parse', 'origin/master'], { cwd: dir })).trim()).to.equal(sha);

      const tarFile = path.join(tempDir(), 'a.tar');
      const archive = await c.git(['archive', `--remote=${app.ssh}`, '-o', tarFile, 'master', 'README.md'], dev.key.file);
      expect(archive.code, archive.stderr).to.equal(0);
      expect(fs.readFileSync(tarFile).toString('latin1')).to.contain('# app');
    });

    it('keeps the day of a user who only runs git archive --remote (a download, as 10.8 counts it)', async () => {
      const viewer = await account('arch', 'ed25519');
      await insertMember(s.db, { sourceType: 'project', sourceId: app.id, userId: viewer.user.id, accessLevel: DEVELOPER });
      const before = await s.db('users').where({ id: viewer.user.id }).first('last_activity_on');
      expect(before.last_activity_on).to.equal(null);
      const archive = await c.git(['archive', `--remote=${app.ssh}`, '-o', path.join(tempDir(), 'b.tar'), 'master'], viewer.key.file);
      expect(archive.code, archive.stderr).to.equal(0);
      const after = await s.db('users').where({ id: viewer.user.id }).first('last_activity_on');
      expect(after.last_activity_on).to.equal(new Date().toISOString().slice(0, 10));
    });

    it('lets a developer push a new branch; refuses a protected branch and a force push with GitLab’s messages', async () => {
      const dir = path.join(tempDir(), 'dev');
      await c.git(['clone', '-q', app.ssh, dir], dev.key.file);
      const before = refs(app);
      await commit(dir, { 'dev.txt': 'dev\n' }, 'dev work');
      const master = await c.git(['push', 'origin', 'master'], dev.key.file, { cwd: dir });
      expect(master.code).to.not.equal(0);
      expect(master.stderr).to.contain('remote: GitLab: You are not allowed to push code to protected branches on this project.');
      expect(master.stderr).to.contain(REJECTED('master'));
      expect(refs(app)).to.equal(before);

      const feature = await c.git(['push', 'origin', 'HEAD:feature'], dev.key.file, { cwd: dir });
      expect(feature.code, feature.stderr).to.equal(0);
      expect(head(app, 'refs/heads/feature')).to.equal((await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim());
      const events = await s.get(`/projects/${app.id}/events`, { token: owner.token });
      expect(events.body[0]).to.include({ action_name: 'pushed new', author_username: 'dev' });

      // The owner may push master but not force it (protected).
      const ownerDir = path.join(tempDir(), 'owner');
      await c.git(['clone', '-q', app.ssh, ownerDir], owner.key.file);
      await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: ownerDir });
      await commit(ownerDir, { 'rewrite.txt': 'x\n' }, 'rewrite');
      const forced = await c.git(['push', '-f', 'origin', 'master'], owner.key.file, { cwd: ownerDir });
      expect(forced.code).to.not.equal(0);
      expect(forced.stderr).to.contain('remote: GitLab: You are not allowed to force push code to a protected branch on this project.');
      expect(refs(app)).to.not.contain((await gitOk(['rev-parse', 'HEAD'], { cwd: ownerDir })).trim());
    });

    it('hides a private project from a non-member’s key; a public one can be cloned, not pushed', async () => {
      const clone = await c.git(['clone', app.ssh, path.join(tempDir(), 'x')], stranger.key.file);
      expect(clone.code).to.not.equal(0);
      expect(clone.stderr).to.contain('GitLab: The project you were looking for could not be found.');
      const work = await workRepo();
      expect((await c.git(['push', pub.ssh, 'master'], owner.key.file, { cwd: work })).code).to.equal(0);
      const dir = path.join(tempDir(), 'pub');
      expect((await c.git(['clone', '-q', pub.ssh, dir], stranger.key.file)).code).to.equal(0);
      await commit(dir, { 's.txt': 's\n' }, 'stranger');
      const push = await c.git(['push', 'origin', 'master'], stranger.key.file, { cwd: dir });
      expect(push.code).to.not.equal(0);
      expect(push.stderr).to.contain('GitLab: You are not allowed to push code to this project.');
    });

    it('refuses a blocked user with GitLab’s message', async () => {
      expect((await s.post(`/users/${dev.user.id}/block`)).status).to.equal(201);
      const r = await c.git(['ls-remote', app.ssh], dev.key.file);
      expect(r.code).to.not.equal(0);
      expect(r.stderr).to.contain('GitLab: Your account has been blocked.');
      expect((await s.post(`/users/${dev.user.id}/unblock`)).status).to.equal(201);
      expect((await c.git(['ls-remote', app.ssh], dev.key.file)).code).to.equal(0);
    });

    it('refuses git over SSH when enabled_git_access_protocol is http (GitAccess#check_protocol!)', async () => {
      expect((await s.put('/application/settings', { json: { enabled_git_access_protocol: 'http' } })).status).to.equal(200);
      try {
        const r = await c.git(['ls-remote', app.ssh], dev.key.file);
        expect(r.code).to.not.equal(0);
        expect(r.stderr).to.contain('GitLab: Git access over SSH is not allowed');
      } finally {
        expect((await s.put('/application/settings', { json: { enabled_git_access_protocol: 'nil' } })).status).to.equal(200);
      }
      expect((await c.git(['ls-remote', app.ssh], dev.key.file)).code).to.equal(0);
    });
  });

  describe('deploy keys', () => {
    it('a read-only key clones, and its push is refused with GitLab’s message; nothing moves', async () => {
      const dir = path.join(tempDir(), 'ro');
      const clone = await c.git(['clone', '-q', app.ssh, dir], readOnly.file);
      expect(clone.code, clone.stderr).to.equal(0);
      const before = refs(app);
      await commit(dir, { 'ro.txt': 'no\n' }, 'read-only');
      const push = await c.git(['push', 'origin', 'HEAD:ro-branch'], readOnly.file, { cwd: dir });
      expect(push.code).to.not.equal(0);
      expect(push.stderr).to.contain('GitLab: This deploy key does not have write access to this project.');
      expect(refs(app)).to.equal(before);
    });

    it('a can_push key pushes (protected branches included, as GitLab 10.8); events are its creator’s', async () => {
      const dir = path.join(tempDir(), 'rw');
      expect((await c.git(['clone', '-q', app.ssh, dir], writer.file)).code).to.equal(0);
      const sha = await commit(dir, { 'deploy.txt': 'v1\n' }, 'release');
      const branch = await c.git(['push', 'origin', 'HEAD:release'], writer.file, { cwd: dir });
      expect(branch.code, branch.stderr).to.equal(0);
      const master = await c.git(['push', 'origin', 'master'], writer.file, { cwd: dir });
      expect(master.code, master.stderr).to.equal(0);
      expect(head(app)).to.equal(sha);
      const events = await s.get(`/projects/${app.id}/events`, { token: owner.token });
      expect(events.body[0]).to.include({ action_name: 'pushed to', author_username: 'olga' });
      expect(events.body[0].push_data).to.include({ ref: 'master', commit_to: sha });
    });

    it('can_push is per project: the same key is read-only where it was enabled without it', async () => {
      const enabled = await s.post(`/projects/${other.id}/deploy_keys/${await keyId(writer)}/enable`, { token: owner.token });
      expect(enabled.status).to.equal(201);
      const work = await workRepo();
      const push = await c.git(['push', other.ssh, 'master'], writer.file, { cwd: work });
      expect(push.code).to.not.equal(0);
      expect(push.stderr).to.contain('GitLab: This deploy key does not have write access to this project.');
      expect(refs(other)).to.equal('');
    });

    it('a key reaches only the private projects it is enabled in, and public ones', async () => {
      const r = await c.git(['ls-remote', other.ssh], readOnly.file);
      expect(r.code).to.not.equal(0);
      expect(r.stderr).to.contain('GitLab: The project you were looking for could not be found.');
      const pubClone = await c.git(['ls-remote', pub.ssh], readOnly.file);
      expect(pubClone.code, pubClone.stderr).to.equal(0);
    });

    it('an archived project refuses every push (users and deploy keys) and still serves clones', async () => {
      expect((await s.post(`/projects/${app.id}/archive`, { token: owner.token })).status).to.equal(201);
      try {
        const dir = path.join(tempDir(), 'arch');
        expect((await c.git(['clone', '-q', app.ssh, dir], owner.key.file)).code).to.equal(0);
        await commit(dir, { 'arch.txt': 'x\n' }, 'archived');
        const before = refs(app);
        for (const key of [owner.key.file, writer.file]) {
          const r = await c.git(['push', 'origin', 'HEAD:archived'], key, { cwd: dir });
          expect(r.code).to.not.equal(0);
          expect(r.stderr).to.contain('GitLab: You are not allowed to push code to this project.');
        }
        expect(refs(app)).to.equal(before);
      } finally {
        await s.post(`/projects/${app.id}/unarchive`, { token: owner.token });
      }
    });

    it('a key whose creator was deleted still deploys; its pushes record no event (no user to credit)', async () => {
      const { user: temp, token } = await s.createUser('temp');
      await insertMember(s.db, { sourceType: 'project', sourceId: pub.id, userId: temp.id, accessLevel: MASTER });
      const key = await makeKey('ed25519', 'orphan@ci');
      const r = await s.post(`/projects/${pub.id}/deploy_keys`, { token, json: { title: 'orphan', key: key.publicKey, can_push: true } });
      expect(r.status, r.text).to.equal(201);
      expect((await s.delete(`/users/${temp.id}`)).status).to.equal(204);
      const shown = await s.get(`/keys/${r.body.id}`);
      expect(shown.body.user).to.include({ username: 'ghost' });
      expect((await c.ssh(['-T', 'git@127.0.0.1'], key.file)).stdout).to.equal('Welcome to GitLab, Anonymous!\n');

      const eventsBefore = (await s.get(`/projects/${pub.id}/events`, { token: owner.token })).body.length;
      const dir = path.join(tempDir(), 'orphan');
      expect((await c.git(['clone', '-q', pub.ssh, dir], key.file)).code).to.equal(0);
      const sha = await commit(dir, { 'orphan.txt': 'x\n' }, 'from an orphaned key');
      const push = await c.git(['push', 'origin', 'HEAD:orphaned'], key.file, { cwd: dir });
      expect(push.code, push.stderr).to.equal(0);
      expect(head(pub, 'refs/heads/orphaned')).to.equal(sha);
      expect((await s.get(`/projects/${pub.id}/events`, { token: owner.token })).body.length).to.equal(eventsBefore);
    });

    it('a removed key no longer signs in', async () => {
      const id = await keyId(readOnly);
      expect((await s.delete(`/projects/${app.id}/deploy_keys/${id}`, { token: owner.token })).status).to.equal(204);
      const r = await c.git(['ls-remote', app.ssh], readOnly.file);
      expect(r.code).to.not.equal(0);
      expect(r.stderr).to.contain(DENIED);
    });
  });

  describe('the command an SSH client asks to run', () => {
    const exec = (command: string) => c.ssh(['git@127.0.0.1', command], owner.key.file);

    it('refuses anything but the three git commands on one quoted project path', async () => {
      const cases: [string, string][] = [
        ["git-upload-pack '../../etc'", 'GitLab: Invalid repository path'],
        ["git-upload-pack '/olga/../../etc/passwd'", 'GitLab: Invalid repository path'],
        ['ls', 'GitLab: Disallowed command'],
        ["git-upload-pack 'x.git'; touch pwned", 'GitLab: Disallowed command'],
        ['git-upload-pack olga/app.git', 'GitLab: Disallowed command'],
        ["git-upload-pack '--help'", 'GitLab: Invalid repository path'],
        ["git upload-pack 'olga/app.git'", 'GitLab: Disallowed command'],
        ["sh -c 'touch pwned'", 'GitLab: Disallowed command'],
        ["git-upload-pack 'olga/app.git' 'olga/pub.git'", 'GitLab: Disallowed command'],
        ["git-upload-pack 'olga/nope.git'", 'GitLab: The project you were looking for could not be found.'],
      ];
      for (const [command, message] of cases) {
        const r = await exec(command);
        expect(r.code, command).to.equal(1);
        expect(r.stderr, command).to.equal(`${message}\n`);
        expect(r.stdout, command).to.equal('');
      }
    });

    it('runs no shell: nothing named pwned appears anywhere the server could write', async () => {
      await exec("git-upload-pack 'x.git'; touch pwned");
      await exec("git-upload-pack 'olga/app.git; touch pwned'");
      await exec('touch pwned');
      for (const dir of [process.cwd(), s.dir, path.join(s.dir, 'repos'), os.tmpdir(), os.homedir()]) {
        expect(fs.existsSync(path.join(dir, 'pwned')), dir).to.equal(false);
      }
    });

    it('refuses subsystems such as sftp', async () => {
      const r = await c.ssh(['-s', 'git@127.0.0.1', 'sftp'], owner.key.file);
      expect(r.code).to.not.equal(0);
    });

    it('accepts the scp-like form of the path too (and without .git)', async () => {
      for (const form of [`'${app.path}.git'`, `'${app.path}'`]) {
        const r = await c.ssh(['git@127.0.0.1', `git-upload-pack ${form}`], owner.key.file, '0000');
        expect(r.code, form).to.equal(0);
        expect(r.stdout, form).to.contain('refs/heads/master');
      }
    });

    it('never lets one key’s refusal leak another project’s existence', async () => {
      const r = await c.ssh(['git@127.0.0.1', `git-upload-pack '${app.path}.git'`], stranger.key.file);
      expect(r.code).to.equal(1);
      const missing = await c.ssh(['git@127.0.0.1', "git-upload-pack 'olga/missing.git'"], stranger.key.file);
      expect(missing.code).to.equal(1);
      expect(r.stderr).to.equal(missing.stderr);
    });
  });

  async function keyId(k: KeyPair): Promise<number> {
    const row = await s.db('keys').where({ fingerprint: k.fingerprint }).first('id');
    return row.id;
  }
});
