// Branch names that are not ref names: `./master`, `../` paths into another
// repository, over-long names, lone surrogates and revisions built to make a regex backtrack.
// Each case is one a client can send; the repositories are checked with the real `git`.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { addRoleMembers, type Account } from '../helpers/roles.js';
import { createBranch, createProject, openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { expectFsckClean, git, head } from '../helpers/bare_git.js';
import { pkt } from '../../src/transport/pktline.js';

interface Project {
  id: number;
  path: string;
  dir: string;
}

describe('Ref names from clients', function () {
  this.timeout(60000);
  let s: TestServer;
  let owner: Account;
  let dev: Account;
  let attacker: Account;
  const projects: number[] = [];

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('victim');
    dev = await s.createUser('devon');
    attacker = await s.createUser('mallory');
  });
  after(async () => {
    await s.close();
  });

  let counter = 0;
  /** A project of `who` with README.md on master. */
  async function project(who: Account, json: Record<string, unknown> = {}): Promise<Project> {
    const r = await createProject(s, who.token, { name: `r${++counter}`, ...json });
    projects.push(r.id);
    const p = { id: r.id, path: r.path_with_namespace, dir: repoDir(s, r.path_with_namespace) };
    await writeFiles(s, p, 'master', { 'README.md': 'hello\n' }, { message: 'Initial', token: who.token });
    return p;
  }

  const doesNotExist = (field: 'source_branch' | 'target_branch', name: string) => ({
    message: { [field]: [`${field === 'source_branch' ? 'Source' : 'Target'} branch "${name}" does not exist`] },
  });

  describe('./master as a merge request target', () => {
    it('is refused: a developer cannot reach a protected master through it', async () => {
      const p = await project(owner);
      await addRoleMembers(s, p.id, { dev });
      const master = head(p.dir, 'master');
      await writeFiles(s, p, 'feature', { 'evil.txt': 'x\n' }, { start: 'master', token: dev.token });
      // The direct write is refused (master is protected) ...
      const direct = await s.post(`/projects/${p.id}/repository/files/direct.txt`, {
        token: dev.token,
        json: { branch: 'master', content: 'x', commit_message: 'direct' },
      });
      expect([direct.status, direct.body]).to.deep.equal([400, { message: 'You are not allowed to push into this branch' }]);
      // ... and so is the merge request that would have merged into it under another name.
      const r = await s.post(`/projects/${p.id}/merge_requests`, {
        token: dev.token,
        json: { source_branch: 'feature', target_branch: './master', title: 'sneak' },
      });
      expect([r.status, r.body]).to.deep.equal([400, doesNotExist('target_branch', './master')]);
      expect(head(p.dir, 'master')).to.equal(master);
    });

    it('is refused as a new target of an existing merge request', async () => {
      const p = await project(owner);
      await addRoleMembers(s, p.id, { dev });
      await writeFiles(s, p, 'feature', { 'f.txt': 'x\n' }, { start: 'master', token: dev.token });
      await createBranch(s, p.id, 'other', 'master', dev.token);
      const mr = await openMergeRequest(s, p.id, { source_branch: 'feature', target_branch: 'other', title: 'ok' }, dev.token);
      const r = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: dev.token, json: { target_branch: './master' } });
      expect([r.status, r.body]).to.deep.equal([400, doesNotExist('target_branch', './master')]);
      const stored = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: dev.token });
      expect(stored.body.target_branch).to.equal('other');
    });

    it('is not a branch to read either: ./master resolves to nothing', async () => {
      const p = await project(owner);
      const r = await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'copy', ref: './master' } });
      expect([r.status, r.body]).to.deep.equal([400, { message: 'Invalid reference name' }]);
      const tree = await s.get(`/projects/${p.id}/repository/tree`, { token: owner.token, query: { ref: './master' } });
      expect([tree.status, tree.body]).to.deep.equal([404, { message: '404 Tree Not Found' }]);
    });
  });

  describe('a fork targeting another repository through ../', () => {
    it("cannot open (nor merge) a merge request whose target is the upstream's master", async () => {
      const upstream = await project(owner, { visibility: 'public' });
      const before = head(upstream.dir, 'master');
      const forked = await s.post(`/projects/${upstream.id}/fork`, { token: attacker.token });
      expect(forked.status, forked.text).to.equal(201);
      projects.push(forked.body.id);
      const fork = { id: forked.body.id, path: forked.body.path_with_namespace, dir: repoDir(s, forked.body.path_with_namespace) };
      await writeFiles(s, fork, 'evil', { 'only-in-fork.txt': 'x\n' }, { start: 'master', token: attacker.token });
      const target = `../../../../${upstream.path}.git/refs/heads/master`;
      const r = await s.post(`/projects/${fork.id}/merge_requests`, {
        token: attacker.token,
        json: { source_branch: 'evil', target_branch: target, title: 'escape' },
      });
      expect([r.status, r.body]).to.deep.equal([400, doesNotExist('target_branch', target)]);
      // Nothing reached the upstream repository.
      expect(git(upstream.dir, ['rev-parse', 'refs/heads/master']).trim()).to.equal(before);
      expectFsckClean(upstream.dir);
      const file = await s.get(`/projects/${upstream.id}/repository/files/README.md`, { token: null, query: { ref: 'master' } });
      expect(file.status).to.equal(200);
    });

    it('cannot retarget an open merge request there', async () => {
      const upstream = await project(owner, { visibility: 'public' });
      const before = head(upstream.dir, 'master');
      const forked = await s.post(`/projects/${upstream.id}/fork`, { token: attacker.token });
      projects.push(forked.body.id);
      const fork = { id: forked.body.id, path: forked.body.path_with_namespace, dir: repoDir(s, forked.body.path_with_namespace) };
      await writeFiles(s, fork, 'evil', { 'only-in-fork.txt': 'x\n' }, { start: 'master', token: attacker.token });
      const mr = await openMergeRequest(s, fork.id, { source_branch: 'evil', target_branch: 'master', title: 'innocent' }, attacker.token);
      const target = `../../../../${upstream.path}.git/refs/heads/master`;
      const r = await s.put(`/projects/${fork.id}/merge_requests/${mr.iid}`, { token: attacker.token, json: { target_branch: target } });
      expect([r.status, r.body]).to.deep.equal([400, doesNotExist('target_branch', target)]);
      expect(git(upstream.dir, ['rev-parse', 'refs/heads/master']).trim()).to.equal(before);
      expectFsckClean(upstream.dir);
    });

    it('cannot merge into it even from a row stored before names were checked', async () => {
      const upstream = await project(owner, { visibility: 'public' });
      const before = head(upstream.dir, 'master');
      const forked = await s.post(`/projects/${upstream.id}/fork`, { token: attacker.token });
      projects.push(forked.body.id);
      const fork = { id: forked.body.id, path: forked.body.path_with_namespace, dir: repoDir(s, forked.body.path_with_namespace) };
      await writeFiles(s, fork, 'evil', { 'only-in-fork.txt': 'x\n' }, { start: 'master', token: attacker.token });
      const mr = await openMergeRequest(s, fork.id, { source_branch: 'evil', target_branch: 'master', title: 'old row' }, attacker.token);
      // What an earlier Wharf let a client store.
      await s
        .db('merge_requests')
        .where({ target_project_id: fork.id, iid: mr.iid })
        .update({ target_branch: `../../../../${upstream.path}.git/refs/heads/master`, merge_status: 'unchecked' });
      const r = await s.put(`/projects/${fork.id}/merge_requests/${mr.iid}/merge`, { token: attacker.token });
      expect([r.status, r.body]).to.deep.equal([405, { message: '405 Method Not Allowed' }]);
      expect(git(upstream.dir, ['rev-parse', 'refs/heads/master']).trim()).to.equal(before);
      expectFsckClean(upstream.dir);
    });
  });

  describe('a push naming a ref through ../', () => {
    it("is refused by git's own check, and the other repository keeps its branch", async () => {
      const upstream = await project(owner, { visibility: 'public' });
      const before = head(upstream.dir, 'master');
      const mine = await project(attacker);
      // A deletion needs no pack: the whole request is the command list.
      const ref = `refs/heads/../../../../${upstream.path}.git/refs/heads/master`;
      const res = await fetch(`${s.url}/${mine.path}.git/git-receive-pack`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`x:${attacker.token}`).toString('base64')}`,
          'Content-Type': 'application/x-git-receive-pack-request',
        },
        body: `${pkt(`${before} ${'0'.repeat(40)} ${ref}\0report-status\n`)}0000`,
      });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.contain(`ng ${ref} funny refname`);
      expect(git(upstream.dir, ['rev-parse', 'refs/heads/master']).trim()).to.equal(before);
      expectFsckClean(upstream.dir);
    });
  });

  describe('a source branch naming another repository', () => {
    it('answers the same whether the private project exists or not', async () => {
      await project(owner, { name: 'secret', path: 'secret', visibility: 'private' });
      const mine = await project(attacker);
      const answer = async (name: string) => {
        const source = `../../../../victim/${name}.git/refs/heads/master`;
        const r = await s.post(`/projects/${mine.id}/merge_requests`, {
          token: attacker.token,
          json: { source_branch: source, target_branch: 'master', title: 'probe' },
        });
        return [r.status, r.body, source] as const;
      };
      const [existingStatus, existingBody, existingName] = await answer('secret');
      const [missingStatus, missingBody, missingName] = await answer('no-such-project');
      expect([existingStatus, existingBody]).to.deep.equal([400, doesNotExist('source_branch', existingName)]);
      expect([missingStatus, missingBody]).to.deep.equal([400, doesNotExist('source_branch', missingName)]);
    });
  });

  describe('names the file system cannot hold', () => {
    const long = 'b'.repeat(256);
    const surrogate = 'bad\ud800name';

    it('refuses a branch name over 255 bytes, or with a lone surrogate, on branch create', async () => {
      const p = await project(owner);
      for (const name of [long, `dir/${'c'.repeat(300)}`, surrogate]) {
        const r = await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: name, ref: 'master' } });
        expect([r.status, r.body], name.slice(0, 20)).to.deep.equal([400, { message: 'Branch name is invalid' }]);
      }
      expect(git(p.dir, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).to.equal('refs/heads/master');
    });

    it('refuses them as the new branch of a file write', async () => {
      const p = await project(owner);
      for (const name of [long, surrogate]) {
        const r = await s.post(`/projects/${p.id}/repository/files/new.txt`, {
          token: owner.token,
          json: { branch: name, start_branch: 'master', content: 'x', commit_message: 'm' },
        });
        expect([r.status, r.body], name.slice(0, 20)).to.deep.equal([400, { message: `Something went wrong when we tried to create '${name}' for you: Branch name is invalid` }]);
      }
      expect(git(p.dir, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).to.equal('refs/heads/master');
    });

    it('answers a merge request naming them with a validation message', async () => {
      const p = await project(owner);
      for (const name of [long, surrogate]) {
        const r = await s.post(`/projects/${p.id}/merge_requests`, { token: owner.token, json: { source_branch: name, target_branch: 'master', title: 't' } });
        expect([r.status, r.body], name.slice(0, 20)).to.deep.equal([400, doesNotExist('source_branch', name)]);
      }
    });

    it('answers a read of such a branch with 400 or 404, never a 500', async () => {
      const p = await project(owner);
      const get = await s.get(`/projects/${p.id}/repository/branches/${encodeURIComponent(long)}`, { token: owner.token });
      expect([get.status, get.body]).to.deep.equal([400, { message: 'The branch refname is invalid' }]);
      const del = await s.delete(`/projects/${p.id}/repository/branches/${encodeURIComponent(long)}`, { token: owner.token });
      expect([del.status, del.body]).to.deep.equal([400, { message: 'The branch refname is invalid' }]);
      const tree = await s.get(`/projects/${p.id}/repository/tree`, { token: owner.token, query: { ref: long } });
      expect([tree.status, tree.body]).to.deep.equal([404, { message: '404 Tree Not Found' }]);
    });

    it('bounds file paths: a name over 255 bytes is refused on write, a path over 4096 bytes is unknown on read', async () => {
      const p = await project(owner);
      const before = head(p.dir, 'master');
      const file = `dir/${'h'.repeat(256)}.txt`;
      const w = await s.post(`/projects/${p.id}/repository/commits`, {
        token: owner.token,
        json: { branch: 'master', commit_message: 'm', actions: [{ action: 'create', file_path: file, content: 'x' }] },
      });
      expect([w.status, w.body]).to.deep.equal([400, { message: `invalid path: '${file}'` }]);
      expect(head(p.dir, 'master')).to.equal(before);
      const deep = 'd/'.repeat(2100);
      const tree = await s.get(`/projects/${p.id}/repository/tree`, { token: owner.token, query: { path: deep } });
      expect([tree.status, tree.body]).to.deep.equal([404, { message: '404 Tree Not Found' }]);
    });

    it('refuses a protected-branch rule over 255 characters, or with a lone surrogate', async () => {
      const p = await project(owner);
      const r = await s.post(`/projects/${p.id}/protected_branches`, { token: owner.token, json: { name: long } });
      expect([r.status, r.body]).to.deep.equal([422, { message: ['Name is too long (maximum is 255 characters)'] }]);
      const bad = await s.post(`/projects/${p.id}/protected_branches`, { token: owner.token, json: { name: surrogate } });
      expect([bad.status, bad.body]).to.deep.equal([422, { message: ['Name is invalid'] }]);
      // 255 characters of four bytes each is still a name.
      const wide = await s.post(`/projects/${p.id}/protected_branches`, { token: owner.token, json: { name: '😀'.repeat(255) } });
      expect(wide.status, wide.text).to.equal(201);
    });

    it('still accepts a 250-byte name, and any length made of short components', async () => {
      const p = await project(owner);
      for (const name of ['e'.repeat(250), `${'f'.repeat(200)}/${'g'.repeat(200)}`]) {
        const r = await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: name, ref: 'master' } });
        expect([r.status, r.body.name], name.slice(0, 20)).to.deep.equal([201, name]);
        expect(git(p.dir, ['rev-parse', `refs/heads/${name}`]).trim()).to.equal(head(p.dir, 'master'));
      }
      const over = await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'e'.repeat(251), ref: 'master' } });
      expect([over.status, over.body]).to.deep.equal([400, { message: 'Branch name is invalid' }]);
    });
  });

  describe('revisions built to make a parser backtrack', () => {
    const tildes = `a${'~'.repeat(100_000)}X`;

    it('answers a 100 KB ~~~ ref on branch create with a 400', async () => {
      const p = await project(owner);
      const r = await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'x', ref: tildes } });
      expect([r.status, r.body]).to.deep.equal([400, { message: 'Invalid reference name' }]);
    });

    it('answers anonymous tree, commit, compare and archive reads of a 15 KB ref with their 404s', async () => {
      const p = await project(owner, { visibility: 'public' });
      const ref = `a${'~'.repeat(15_000)}X`;
      // Written into the URL as is: a query builder would triple the size with %7E.
      const tree = await s.get(`/projects/${p.id}/repository/tree?ref=${ref}`, { token: null });
      expect([tree.status, tree.body]).to.deep.equal([404, { message: '404 Tree Not Found' }]);
      const commit = await s.get(`/projects/${p.id}/repository/commits/${ref}`, { token: null });
      expect([commit.status, commit.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
      const file = await s.get(`/projects/${p.id}/repository/files/README.md?ref=${ref}`, { token: null });
      expect([file.status, file.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
      const archive = await s.get(`/projects/${p.id}/repository/archive?sha=${ref}`, { token: null });
      expect([archive.status, archive.body]).to.deep.equal([404, { message: '404 File Not Found' }]);
      const compare = await s.get(`/projects/${p.id}/repository/compare?from=${ref}&to=master`, { token: null });
      expect(compare.status).to.equal(200);
      expect(compare.body.commits).to.deep.equal([]);
    });

    it('still resolves the suffixes git knows', async () => {
      const p = await project(owner);
      const first = head(p.dir, 'master');
      await writeFiles(s, p, 'master', { 'README.md': 'two\n' }, { token: owner.token });
      for (const ref of ['master~1', 'master^', 'master^1', 'master~', 'master^{}~1', 'master~0^']) {
        const r = await s.get(`/projects/${p.id}/repository/commits/${encodeURIComponent(ref)}`, { token: owner.token });
        expect([r.status, r.body.id], ref).to.deep.equal([200, first]);
      }
    });
  });
});
