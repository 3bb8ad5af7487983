// Clone, fetch and push with the real git client, checked through the API and `git fsck`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectFsckClean, git as bareGit } from '../helpers/bare_git.js';
import { commit, git, gitOk, repoUrl, tempDir, workRepo } from './git_client.js';

describe('git smart HTTP: clone, fetch, push', function () {
  this.timeout(60_000);
  let s: TestServer;
  let owner: { token: string };

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('olive');
  });
  after(async () => s.close());

  async function newProject(name: string, visibility = 'private'): Promise<{ id: number; path: string; gitdir: string }> {
    const r = await s.post('/projects', { json: { name, visibility }, token: owner.token });
    expect(r.status, r.text).to.equal(201);
    return { id: r.body.id, path: r.body.path_with_namespace, gitdir: s.deps.repos.pathFor(r.body.path_with_namespace) };
  }

  const branchNames = async (id: number) => (await s.get(`/projects/${id}/repository/branches`)).body.map((b: { name: string }) => b.name);

  it('clones an empty project; the first push picks the first pushed branch as default', async () => {
    const p = await newProject('empty-one');
    const dir = path.join(tempDir(), 'clone');
    const cloned = await git(['clone', repoUrl(s, p.path, owner.token), dir]);
    expect(cloned.code, cloned.stderr).to.equal(0);
    expect(cloned.stderr).to.contain('You appear to have cloned an empty repository');

    await commit(dir, { 'a.txt': 'a\n' }, 'first');
    await gitOk(['checkout', '-q', '-b', 'develop'], { cwd: dir });
    await gitOk(['push', '-q', 'origin', 'develop'], { cwd: dir });

    const project = await s.get(`/projects/${p.id}`);
    expect(project.body.default_branch).to.equal('develop');
    expect(project.body.last_activity_at).to.not.equal(project.body.created_at);
    expect(fs.readFileSync(path.join(p.gitdir, 'HEAD'), 'utf8').trim()).to.equal('ref: refs/heads/develop');
    expect(await branchNames(p.id)).to.deep.equal(['develop']);
    // The new default branch is protected (default branch protection: full).
    const rules = await s.get(`/projects/${p.id}/protected_branches`);
    expect(rules.body.map((r: { name: string }) => r.name)).to.deep.equal(['develop']);
    await s.drainJobs(); // refreshed by a background job
    const stats = await s.db('project_statistics').where({ project_id: p.id }).first();
    expect(stats.commit_count).to.equal(1);
    expectFsckClean(p.gitdir);
  });

  it("prefers HEAD's branch when the first push has several", async () => {
    const p = await newProject('several');
    const dir = await workRepo();
    await gitOk(['branch', 'aaa'], { cwd: dir });
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'aaa', 'master'], { cwd: dir });
    expect((await s.get(`/projects/${p.id}`)).body.default_branch).to.equal('master');
    expect(await branchNames(p.id)).to.deep.equal(['aaa', 'master']);
  });

  it('pushes branches and tags, clones them back, fetches what came later', async () => {
    const p = await newProject('full');
    const dir = await workRepo([{ 'a.txt': '1\n' }, { 'a.txt': '2\n' }, { 'b/c.txt': '3\n' }]);
    await gitOk(['tag', 'v1.0'], { cwd: dir });
    await gitOk(['tag', '-a', 'v1.1', '-m', 'annotated'], { cwd: dir });
    await gitOk(['branch', 'feature/x', 'HEAD~1'], { cwd: dir });
    const url = repoUrl(s, p.path, owner.token);
    await gitOk(['push', '-q', url, 'master', 'feature/x', '--tags'], { cwd: dir });

    expect(await branchNames(p.id)).to.deep.equal(['feature/x', 'master']);
    expect(bareGit(p.gitdir, ['tag', '-l']).trim().split('\n')).to.deep.equal(['v1.0', 'v1.1']);

    const clone = path.join(tempDir(), 'c');
    await gitOk(['clone', '-q', url, clone]);
    expect(fs.readFileSync(path.join(clone, 'b/c.txt'), 'utf8')).to.equal('3\n');
    expect((await gitOk(['rev-list', '--count', 'HEAD'], { cwd: clone })).trim()).to.equal('3');
    expect((await gitOk(['tag', '-l'], { cwd: clone })).trim().split('\n')).to.deep.equal(['v1.0', 'v1.1']);

    const next = await commit(dir, { 'd.txt': '4\n' }, 'fourth');
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    await gitOk(['pull', '-q', '--ff-only'], { cwd: clone });
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: clone })).trim()).to.equal(next);
    await s.drainJobs(); // refreshed by a background job
    const stats = await s.db('project_statistics').where({ project_id: p.id }).first();
    expect(stats.commit_count).to.equal(4);
    expectFsckClean(p.gitdir);
  });

  it('speaks protocol v0 and v2, shallow and partial clones, and the URL without .git', async () => {
    const p = await newProject('protocols', 'public');
    const dir = await workRepo([{ 'a.txt': 'x\n' }, { 'a.txt': 'y\n' }, { 'a.txt': 'z\n' }]);
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'master'], { cwd: dir });
    const head = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    const url = repoUrl(s, p.path); // anonymous: public project

    for (const version of ['0', '2']) {
      const target = path.join(tempDir(), 'v');
      const r = await git(['-c', `protocol.version=${version}`, 'clone', '-q', url, target], { env: { GIT_TRACE_PACKET: '1' } });
      expect(r.code, r.stderr).to.equal(0);
      if (version === '2') expect(r.stderr).to.contain('version 2');
      else expect(r.stderr).to.not.contain('packet:          git< version 2');
      expect((await gitOk(['rev-parse', 'HEAD'], { cwd: target })).trim()).to.equal(head);
    }

    const shallow = path.join(tempDir(), 's');
    await gitOk(['clone', '-q', '--depth', '1', url, shallow]);
    expect((await gitOk(['rev-list', '--count', 'HEAD'], { cwd: shallow })).trim()).to.equal('1');
    await gitOk(['fetch', '-q', '--unshallow'], { cwd: shallow });
    expect((await gitOk(['rev-list', '--count', 'HEAD'], { cwd: shallow })).trim()).to.equal('3');

    const partial = path.join(tempDir(), 'p');
    await gitOk(['clone', '-q', '--filter=blob:none', '--no-checkout', url, partial]);
    const missing = await gitOk(['rev-list', '--objects', '--all', '--missing=print'], { cwd: partial });
    expect(missing.split('\n').filter((l) => l.startsWith('?')).length).to.equal(3); // no blob fetched

    const bare = path.join(tempDir(), 'b');
    await gitOk(['clone', '-q', url.replace(/\.git$/, ''), bare]);
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: bare })).trim()).to.equal(head);
  });

  it('pushes and clones a 50 MB file', async () => {
    const p = await newProject('big');
    const dir = await workRepo();
    const data = crypto.randomBytes(50 * 1024 * 1024);
    await commit(dir, { 'big.bin': data }, 'big file');
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'master'], { cwd: dir });
    const clone = path.join(tempDir(), 'big');
    await gitOk(['clone', '-q', repoUrl(s, p.path, owner.token), clone]);
    const back = fs.readFileSync(path.join(clone, 'big.bin'));
    expect(crypto.createHash('sha256').update(back).digest('hex')).to.equal(crypto.createHash('sha256').update(data).digest('hex'));
    expectFsckClean(p.gitdir);
  });

  it('accepts a gzipped fetch request, as git sends a long negotiation', async () => {
    const p = await newProject('gzip', 'public');
    const dir = await workRepo();
    const url = repoUrl(s, p.path, owner.token);
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    const base = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    // 60 local commits the server lacks: their `have` lines make git gzip the request.
    for (let i = 0; i < 60; i++) await commit(dir, {}, `local ${i}`);
    const upstream = await workRepo();
    await gitOk(['fetch', '-q', url, 'master'], { cwd: upstream });
    await gitOk(['reset', '-q', '--hard', 'FETCH_HEAD'], { cwd: upstream });
    const remote = await commit(upstream, { 'u.txt': 'u\n' }, 'upstream');
    await gitOk(['push', '-q', url, 'master'], { cwd: upstream });
    const r = await git(['fetch', url, 'master'], { cwd: dir, env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' } });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.match(/Content-Encoding: gzip/i);
    expect((await gitOk(['rev-parse', 'FETCH_HEAD'], { cwd: dir })).trim()).to.equal(remote);
    expect(base).to.have.length(40);

    // The same by hand: a gzipped want/done request answers a pack.
    const body = zlib.gzipSync(Buffer.from(`0032want ${remote}\n00000009done\n`));
    const res = await fetch(`${s.url}/${p.path}.git/git-upload-pack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Content-Encoding': 'gzip' },
      body,
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/x-git-upload-pack-result');
    const out = Buffer.from(await res.arrayBuffer());
    expect(out.subarray(0, 8).toString()).to.equal('0008NAK\n');
    expect(out.includes(Buffer.from('PACK'))).to.equal(true);
  });
});
