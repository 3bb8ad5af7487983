// Branches API (GitLab 10.8 lib/api/branches.rb): list, get, create, delete, delete merged.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { git, head, pushCommit, refState, expectFsckClean, expectUntouched } from '../helpers/bare_git.js';
import { insertMember } from '../../src/services/members/members.js';
import { GUEST, REPORTER } from '../../src/policy/levels.js';
import { isValidBranchName } from '../../src/git/ref_names.js';
import { execFileSync } from 'node:child_process';

type Account = { user: { id: number }; token: string };

describe('Branches API', () => {
  let s: TestServer;
  let alice: Account;
  let reporter: Account;
  let guest: Account;
  let stranger: Account;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    reporter = await s.createUser('reporter');
    guest = await s.createUser('guest');
    stranger = await s.createUser('stranger');
  });
  after(async () => s.close());

  let counter = 0;
  async function project(visibility = 'private') {
    const name = `b${++counter}`;
    const r = await s.post('/projects', { token: alice.token, json: { name, visibility } });
    for (const [who, level] of [
      [reporter, REPORTER],
      [guest, GUEST],
    ] as const) {
      await insertMember(s.db, { sourceType: 'project', sourceId: r.body.id, userId: who.user.id, accessLevel: level });
    }
    return { id: r.body.id as number, dir: path.join(s.dir, 'repos', 'alice', `${name}.git`), url: `/projects/${r.body.id}/repository/branches` };
  }

  const write = (id: number, branch: string, file: string, extra: Record<string, string> = {}) =>
    s.post(`/projects/${id}/repository/files/${encodeURIComponent(file)}`, { token: alice.token, json: { branch, content: file, commit_message: `add ${file}`, ...extra } });

  /**
   * master: 2 commits. `behind` at master's first commit (merged), `same` at master's head
   * (not merged: same commit), `ahead` and `feature/slash` with their own commits.
   */
  async function seeded(visibility = 'private') {
    const p = await project(visibility);
    await write(p.id, 'master', 'one');
    const first = head(p.dir, 'master');
    await write(p.id, 'master', 'two');
    for (const [name, ref] of [
      ['behind', first],
      ['same', 'master'],
    ]) {
      const r = await s.post(p.url, { token: alice.token, json: { branch: name, ref } });
      expect(r.status, r.text).to.equal(201);
    }
    await write(p.id, 'ahead', 'three', { start_branch: 'master' });
    await write(p.id, 'feature/slash', 'four', { start_branch: 'master' });
    return p;
  }

  describe('GET list', () => {
    it('lists branches by name with the Branch entity, merged flags and pagination headers', async () => {
      const p = await seeded();
      const r = await s.get(p.url, { token: alice.token, query: { per_page: 100 } });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/branches.json');
      expect(r.body.map((b: { name: string }) => b.name)).to.deep.equal(['ahead', 'behind', 'feature/slash', 'master', 'same']);
      const byName = Object.fromEntries(r.body.map((b: { name: string }) => [b.name, b]));
      expect(byName.behind.merged).to.equal(true);
      for (const n of ['ahead', 'feature/slash', 'master', 'same']) expect(byName[n].merged, n).to.equal(false);
      // The first commit protected master (default branch protection 2: masters push and merge).
      expect(byName.master).to.deep.include({ protected: true, developers_can_push: false, developers_can_merge: false });
      for (const n of ['ahead', 'behind', 'feature/slash', 'same']) {
        expect(byName[n], n).to.deep.include({ protected: false, developers_can_push: false, developers_can_merge: false });
      }
      expect(byName.master.commit.id).to.equal(head(p.dir, 'master'));
      expect(byName.master.commit.parent_ids).to.deep.equal([head(p.dir, 'behind')]);
      expect(byName.master.commit.title).to.equal('add two');
      expect(r.headers.get('x-total')).to.equal('5');

      const page = await s.get(p.url, { token: alice.token, query: { per_page: 2, page: 2 } });
      expect(page.body.map((b: { name: string }) => b.name)).to.deep.equal(['feature/slash', 'master']);
      expect(page.headers.get('x-total-pages')).to.equal('3');
      expect(page.headers.get('x-next-page')).to.equal('3');
      expect(page.headers.get('link')).to.contain('rel="next"');
    });

    it('filters by search, case-insensitively', async () => {
      const p = await seeded();
      let r = await s.get(p.url, { token: alice.token, query: { search: 'EA' } });
      expect(r.body.map((b: { name: string }) => b.name)).to.deep.equal(['ahead', 'feature/slash']);
      r = await s.get(p.url, { token: alice.token, query: { search: 'no_such_branch_name_entropy' } });
      expect(r.body).to.deep.equal([]);
      expect(r.headers.get('x-total')).to.equal('0');
    });

    it('is empty for an empty repository', async () => {
      const p = await project();
      const r = await s.get(p.url, { token: alice.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([]);
    });

    it('needs download_code: guest 403 on a private project, stranger 404, anonymous fine on a public one', async () => {
      const p = await seeded();
      let r = await s.get(p.url, { token: guest.token });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: '403 Forbidden' });
      r = await s.get(p.url, { token: stranger.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
      const pub = await seeded('public');
      r = await s.get(pub.url, { token: null });
      expect(r.status).to.equal(200);
      expect(r.body).to.have.length(5);
      r = await s.get(`/projects/${encodeURIComponent(`alice/b${counter}`)}/repository/branches`, { token: null });
      expect(r.status).to.equal(200);
    });
  });

  describe('GET one', () => {
    it('answers one branch; a slash in the name arrives URL-encoded', async () => {
      const p = await seeded();
      const r = await s.get(`${p.url}/feature%2Fslash`, { token: reporter.token });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/branch.json');
      expect(r.body).to.deep.include({ name: 'feature/slash', merged: false, protected: false });
      expect(r.body.commit.id).to.equal(head(p.dir, 'feature/slash'));
      expect((await s.get(`${p.url}/behind`, { token: reporter.token })).body.merged).to.equal(true);
    });

    it('answers 404 for an unknown branch and 400 for a name git cannot have', async () => {
      const p = await seeded();
      let r = await s.get(`${p.url}/unknown`, { token: alice.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Branch Not Found' });
      r = await s.get(`${p.url}/branch*`, { token: alice.token });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'The branch refname is invalid' });
    });

    it('answers HEAD with 204 or 404 and no body', async () => {
      const p = await seeded();
      let r = await s.request('HEAD', `${p.url}/master`, { token: alice.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      r = await s.request('HEAD', `${p.url}/unknown`, { token: alice.token });
      expect(r.status).to.equal(404);
      expect(r.text).to.equal('');
    });
  });

  describe('POST', () => {
    it('creates a branch from a branch, a commit id or a tag, answering 201 with the entity', async () => {
      const p = await seeded();
      const sha = head(p.dir, 'behind');
      git(p.dir, ['tag', 'v1', sha]);
      for (const [name, ref] of [
        ['from-branch', 'ahead'],
        ['from-sha', sha],
        ['from-tag', 'v1'],
        ['from-short', sha.slice(0, 10)],
        ['nested/name', 'master'],
      ]) {
        const r = await s.post(p.url, { token: alice.token, json: { branch: name, ref } });
        expect(r.status, name).to.equal(201);
        expectSchema(r.body, 'public_api/v4/branch.json');
        expect(r.body.name).to.equal(name);
        expect(head(p.dir, name)).to.equal(git(p.dir, ['rev-parse', `${ref}^{commit}`]).trim());
      }
      expectFsckClean(p.dir);
    });

    it("answers 10.8's messages for a bad name, an existing branch and an unknown ref, changing nothing", async () => {
      const p = await seeded();
      const before = refState(p.dir);
      const cases: [Record<string, string>, number, unknown][] = [
        [{ branch: 'new design', ref: 'master' }, 400, { message: 'Branch name is invalid' }],
        [{ branch: 'a..b', ref: 'master' }, 400, { message: 'Branch name is invalid' }],
        [{ branch: 'ahead', ref: 'master' }, 400, { message: 'Branch already exists' }],
        [{ branch: 'new_design3', ref: 'foo' }, 400, { message: 'Invalid reference name' }],
        [{ branch: 'master/x', ref: 'master' }, 400, { message: "Branch name is invalid: a branch called 'master' is in the way" }],
        [{}, 400, { error: 'branch is missing, ref is missing' }],
      ];
      for (const [json, status, body] of cases) {
        const r = await s.post(p.url, { token: alice.token, json });
        expect(r.status, JSON.stringify(json)).to.equal(status);
        expect(r.body, JSON.stringify(json)).to.deep.equal(body);
      }
      expectUntouched(p.dir, before);
    });

    it('starts an empty repository with master holding an empty README.md, as GitLab 10.8', async () => {
      const p = await project();
      const r = await s.post(p.url, { token: alice.token, json: { branch: 'dev', ref: 'master' } });
      expect(r.status).to.equal(201);
      expect(git(p.dir, ['ls-tree', '-r', '--name-only', 'master']).trim()).to.equal('README.md');
      expect(git(p.dir, ['show', 'master:README.md'])).to.equal('');
      expect(git(p.dir, ['log', '--format=%s', 'master']).trim()).to.equal('Add README.md');
      expect(head(p.dir, 'dev')).to.equal(head(p.dir, 'master'));
      expect((await s.get(`/projects/${p.id}`, { token: alice.token })).body.default_branch).to.equal('master');
      expect(r.body.merged).to.equal(false);
    });

    it('lets exactly one of several parallel creations of the same branch win', async () => {
      const p = await seeded();
      const replies = await Promise.all(Array.from({ length: 6 }, () => s.post(p.url, { token: alice.token, json: { branch: 'race', ref: 'master' } })));
      expect(replies.filter((r) => r.status === 201)).to.have.length(1);
      for (const r of replies.filter((x) => x.status !== 201)) expect(r.body).to.deep.equal({ message: 'Branch already exists' });
      expectFsckClean(p.dir);
    });

    it('needs developer access (before parameters)', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.post(p.url, { token: reporter.token });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: '403 Forbidden' });
      r = await s.post(p.url, { token: stranger.token, json: { branch: 'x', ref: 'master' } });
      expect(r.status).to.equal(404);
      expectUntouched(p.dir, before);
    });
  });

  describe('DELETE', () => {
    it('deletes a branch with 204, loose or packed', async () => {
      const p = await seeded();
      let r = await s.delete(`${p.url}/ahead`, { token: alice.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      git(p.dir, ['pack-refs', '--all']);
      expect(fs.existsSync(path.join(p.dir, 'refs', 'heads', 'feature', 'slash'))).to.equal(false);
      r = await s.delete(`${p.url}/feature%2Fslash`, { token: alice.token });
      expect(r.status).to.equal(204);
      expect(git(p.dir, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']).trim().split('\n')).to.deep.equal(['behind', 'master', 'same']);
      expect(fs.readFileSync(path.join(p.dir, 'packed-refs'), 'utf8')).to.not.contain('feature/slash');
      // The branch can be created again afterwards.
      expect((await s.post(p.url, { token: alice.token, json: { branch: 'feature/slash', ref: 'master' } })).status).to.equal(201);
      expectFsckClean(p.dir);
    });

    it('refuses the default branch, unknown and invalid names, and a stale If-Unmodified-Since', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.delete(`${p.url}/master`, { token: alice.token });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'The default branch of a project cannot be deleted.' });
      r = await s.delete(`${p.url}/unknown`, { token: alice.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Branch Not Found' });
      r = await s.delete(`${p.url}/branch*`, { token: alice.token });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'The branch refname is invalid' });
      r = await s.delete(`${p.url}/ahead`, { token: alice.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(r.status).to.equal(412);
      expect(r.body).to.deep.equal({ message: '412 Precondition Failed' });
      r = await s.delete(`${p.url}/ahead`, { token: reporter.token });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: '403 Forbidden' });
      expectUntouched(p.dir, before);
      r = await s.delete(`${p.url}/ahead`, { token: alice.token, headers: { 'If-Unmodified-Since': new Date(Date.now() + 60_000).toUTCString() } });
      expect(r.status).to.equal(204);
    });
  });

  describe('DELETE merged_branches', () => {
    it('deletes the branches merged into the default branch, keeping it, unmerged ones and branches at its head', async () => {
      const p = await seeded();
      // `ahead` gains another commit through git: still not merged, so it stays.
      pushCommit(p.dir, 'ahead', { 'x.txt': 'x' });
      const r = await s.delete(`/projects/${p.id}/repository/merged_branches`, { token: alice.token });
      expect(r.status).to.equal(202);
      expect(r.body).to.deep.equal({ message: '202 Accepted' });
      expect(git(p.dir, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']).trim().split('\n')).to.deep.equal(['ahead', 'feature/slash', 'master', 'same']);
      expectFsckClean(p.dir);
    });

    it('needs developer access', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      for (const who of [reporter, guest]) {
        const r = await s.delete(`/projects/${p.id}/repository/merged_branches`, { token: who.token });
        expect(r.status).to.equal(403);
        expect(r.body).to.deep.equal({ message: '403 Forbidden' });
      }
      expectUntouched(p.dir, before);
    });
  });

  describe('branch name rules', () => {
    it('agree with git check-ref-format --branch', () => {
      const names = [
        'master',
        'feature/x',
        'ünïcode',
        'a.lockx',
        '@',
        'x/HEAD',
        'a@b',
        'HEAD',
        '-x',
        'a b',
        'a..b',
        '.a',
        'a/.b',
        'a.lock',
        'a/b.lock/c',
        'a/',
        '/a',
        'a//b',
        'a.',
        'a@{b',
        'a\\b',
        'a*',
        'a?',
        'a[',
        'a~',
        'a^',
        'a:',
        'a\tb',
        'a\u007fb',
        '',
      ];
      for (const name of names) {
        let gitSays = true;
        try {
          execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
        } catch {
          gitSays = false;
        }
        expect(isValidBranchName(name), JSON.stringify(name)).to.equal(gitSays);
      }
      // GitLab's own addition: names that look like full ref names.
      expect(isValidBranchName('refs/heads/x')).to.equal(false);
    });
  });
});
