// Commit diff and compare over HTTP, checked against real git on the same repository.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { git, gitDiff, WorkTree } from '../helpers/compare_git.js';
import { insertMember } from '../../src/services/members/members.js';

describe('commit diff and compare', () => {
  let s: TestServer;
  let bare: string;
  let pid: number;
  let privateId: number;
  let guest: string;
  let outsider: string;
  const ids: Record<string, string> = {};

  before(async function () {
    this.timeout(60000);
    s = await bootServer();
    const created = await s.post('/projects', { json: { name: 'cmp', visibility: 'public' } });
    pid = created.body.id;
    bare = path.join(s.dir, 'repos', `${created.body.path_with_namespace}.git`);
    const w = new WorkTree(bare);
    w.write('README.md', 'hello\n').write('lib/a.rb', 'def a\n  1\nend\n');
    ids.root = w.commit('root');
    w.checkout('feature', true).write('lib/a.rb', 'def a\n  2\nend\n').write('lib/b.rb', 'b\n');
    ids.f1 = w.commit('feature one');
    w.move('README.md', 'docs/README.md');
    ids.f2 = w.commit('feature two');
    w.checkout('master').write('master.txt', 'only on master\n');
    ids.m1 = w.commit('master moves on');
    git(w.dir, ['tag', 'v1', ids.root]);
    w.push();
    w.close();
    const priv = await s.post('/projects', { json: { name: 'secret', visibility: 'private' } });
    privateId = priv.body.id;
    const g = await s.createUser('guestie');
    guest = g.token;
    await insertMember(s.db, { sourceType: 'project', sourceId: privateId, userId: g.user.id, accessLevel: 10 });
    outsider = (await s.createUser('outsider')).token;
  });

  after(() => s.close());

  describe('GET /projects/:id/repository/commits/:sha/diff', () => {
    it('answers the commit against its first parent, as git shows it', async () => {
      const r = await s.get(`/projects/${pid}/repository/commits/${ids.f1}/diff`, { token: null });
      expect(r.status).to.equal(200);
      const expected = gitDiff(bare, ids.root, ids.f1);
      expect(r.body).to.deep.equal(
        expected.map((e) => ({
          old_path: e.old_path,
          new_path: e.new_path,
          a_mode: e.a_mode,
          b_mode: e.b_mode,
          new_file: e.status === 'A',
          renamed_file: e.status === 'R',
          deleted_file: e.status === 'D',
          diff: e.diff,
        })),
      );
      expect(Object.keys(r.body[0])).to.deep.equal(['old_path', 'new_path', 'a_mode', 'b_mode', 'new_file', 'renamed_file', 'deleted_file', 'diff']);
      expect(r.body[0].diff.startsWith('--- a/lib/a.rb\n+++ b/lib/a.rb\n@@ -1,3 +1,3 @@')).to.equal(true);
      expect(r.headers.get('x-total')).to.equal('2');
    });

    it('accepts a branch name with a slash-free ref and shows a pure rename with an empty diff', async () => {
      const r = await s.get(`/projects/${pid}/repository/commits/feature/diff`);
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([
        { old_path: 'README.md', new_path: 'docs/README.md', a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: true, deleted_file: false, diff: '' },
      ]);
    });

    it('shows a root commit as additions with a_mode "0"', async () => {
      const r = await s.get(`/projects/${pid}/repository/commits/v1/diff`);
      expect(r.status).to.equal(200);
      expect(r.body.map((d: any) => [d.new_path, d.a_mode, d.new_file])).to.deep.equal([
        ['README.md', '0', true],
        ['lib/a.rb', '0', true],
      ]);
      expect(r.body[0].diff).to.equal('--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+hello\n');
    });

    it('404s an unknown commit', async () => {
      const r = await s.get(`/projects/${pid}/repository/commits/deadbeef/diff`);
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
    });

    it('checks access before anything else', async () => {
      const anon = await s.get(`/projects/${privateId}/repository/commits/nope/diff`, { token: null });
      expect([anon.status, anon.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
      const g = await s.get(`/projects/${privateId}/repository/commits/nope/diff`, { token: guest });
      expect([g.status, g.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      const o = await s.get(`/projects/${privateId}/repository/commits/nope/diff`, { token: outsider });
      expect([o.status, o.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    });
  });

  describe('GET /projects/:id/repository/compare', () => {
    it('compares from the merge base: commits oldest first, commit = the last, diffs = git diff from...to', async () => {
      const r = await s.get(`/projects/${pid}/repository/compare`, { query: { from: 'master', to: 'feature' }, token: null });
      expect(r.status).to.equal(200);
      expect(r.body.commits.map((c: any) => c.id)).to.deep.equal([ids.f1, ids.f2]);
      expect(r.body.commit.id).to.equal(ids.f2);
      expect(r.body.commit.title).to.equal('feature two');
      const expected = gitDiff(bare, git(bare, ['merge-base', 'master', 'feature']).trim(), ids.f2);
      expect(r.body.diffs.map((d: any) => [d.old_path, d.new_path, d.diff])).to.deep.equal(expected.map((e) => [e.old_path, e.new_path, e.diff]));
      expect(r.body.diffs.some((d: any) => d.new_path === 'master.txt')).to.equal(false);
      expect(r.body.compare_timeout).to.equal(false);
      expect(r.body.compare_same_ref).to.equal(false);
      expect(Object.keys(r.body)).to.deep.equal(['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref']);
    });

    it('straight=true diffs from..to directly (master.txt shows as deleted)', async () => {
      const r = await s.get(`/projects/${pid}/repository/compare`, { query: { from: 'master', to: 'feature', straight: 'true' } });
      expect(r.status).to.equal(200);
      const expected = gitDiff(bare, ids.m1, ids.f2);
      expect(r.body.diffs.map((d: any) => [d.new_path, d.deleted_file, d.diff])).to.deep.equal(expected.map((e) => [e.new_path, e.status === 'D', e.diff]));
      expect(r.body.diffs.find((d: any) => d.new_path === 'master.txt').deleted_file).to.equal(true);
    });

    it('answers the same ref with compare_same_ref and nothing else', async () => {
      const r = await s.get(`/projects/${pid}/repository/compare`, { query: { from: 'feature', to: ids.f2 } });
      expect(r.body).to.deep.equal({ commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: true });
    });

    it('answers an unknown ref with 200 and an empty comparison', async () => {
      const r = await s.get(`/projects/${pid}/repository/compare`, { query: { from: 'nope', to: 'master' } });
      expect([r.status, r.body]).to.deep.equal([200, { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: false }]);
    });

    it('400s missing or invalid parameters in Grape words', async () => {
      const both = await s.get(`/projects/${pid}/repository/compare`);
      expect([both.status, both.body]).to.deep.equal([400, { error: 'from is missing, to is missing' }]);
      const straight = await s.get(`/projects/${pid}/repository/compare`, { query: { from: 'a', to: 'b', straight: 'maybe' } });
      expect([straight.status, straight.body]).to.deep.equal([400, { error: 'straight is invalid' }]);
    });

    it('checks access before parameters', async () => {
      const g = await s.get(`/projects/${privateId}/repository/compare`, { token: guest });
      expect([g.status, g.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      const anon = await s.get(`/projects/${privateId}/repository/compare`, { token: null });
      expect([anon.status, anon.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    });
  });
});
