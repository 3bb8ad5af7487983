// Commits and tags reads, compared with `git log`, `git diff --numstat` and `git for-each-ref`
// on the same repository, plus the permission matrix and every error answer.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { cloneOf, type Work } from '../helpers/git_history.js';
import { insertMember } from '../../src/services/members/members.js';
import { GUEST, REPORTER } from '../../src/policy/levels.js';
import { commitTitle } from '../../src/store/commit_title.js';

const LONG_TITLE = `${'word '.repeat(23)}tail of a long commit title that goes well past one hundred characters`;

describe('Commits and tags API', () => {
  let s: TestServer;
  let alice: { user: { id: number }; token: string };
  let w: Work;
  const ids: Record<string, string> = {};
  let projectId: number;
  const base = '/projects/alice%2Fhist/repository';

  const log = (...args: string[]) =>
    w
      .bareGit(['log', '--format=%H', ...args])
      .split('\n')
      .filter(Boolean);

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    const created = await s.post('/projects', { token: alice.token, json: { name: 'hist', visibility: 'public' } });
    expect(created.status).to.equal(201);
    projectId = created.body.id;
    w = cloneOf(path.join(s.dir, 'repos', 'alice', 'hist.git'));
    w.write('README.md', 'hello\n');
    w.write('lib/a.rb', 'one\ntwo\nthree\n');
    w.write('lib/b.rb', 'b1\nb2\n');
    w.write('data.bin', Buffer.from([1, 0, 2, 0, 3]));
    ids.c1 = w.commit('First commit', '2018-01-01T10:00:00+02:00');
    w.write('lib/a.rb', 'one\nTWO\nthree\nfour');
    ids.c2 = w.commit('Second commit\n\nWith a body.', '2018-01-02T10:00:00+00:00');
    w.git(['checkout', '-q', '-b', 'feature']);
    w.write('README.md', 'hello\nfeature\n');
    ids.f1 = w.commit('Feature readme', '2018-01-03T10:00:00-05:00');
    w.git(['checkout', '-q', 'master']);
    w.write('lib/b.rb', 'b1\nB2\n');
    ids.c3 = w.commit('Change b', '2018-01-04T10:00:00+00:00');
    w.git(['checkout', '-q', 'feature']);
    w.write('feature.txt', 'f\n');
    ids.f2 = w.commit('Feature file', '2018-01-05T10:00:00+00:00');
    w.git(['checkout', '-q', 'master']);
    w.git(['merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature'], { date: '2018-01-06T10:00:00+00:00' });
    ids.m = w.git(['rev-parse', 'HEAD']).trim();
    w.git(['mv', 'lib/b.rb', 'lib/c.rb']);
    ids.c4 = w.commit('Rename b to c', '2018-01-07T10:00:00+00:00');
    w.write('data.bin', Buffer.from([1, 0, 2, 0, 4]));
    w.write('lib/a.rb', 'one\nTWO\nthree\nfour\n');
    ids.c5 = w.commit(`${LONG_TITLE}\nsecond line`, '2018-01-08T10:00:00+00:00');
    w.git(['branch', 'improve/awesome', ids.c2]);
    w.git(['tag', 'v1.0', ids.c2]);
    w.git(['tag', '-a', 'v1.10', '-m', 'Release 1.10\n\nNotes', ids.m], { date: '2018-02-01T00:00:00Z' });
    w.git(['tag', '-a', 'v1.9', '-m', 'Release 1.9', ids.c3], { date: '2018-02-01T00:00:00Z' });
    w.git(['tag', 'blobtag', w.git(['rev-parse', `${ids.c1}:README.md`]).trim()]);
    w.push('master', 'feature', 'improve/awesome', '--tags');
  });
  after(async () => s.close());

  describe('GET /projects/:id/repository/commits', () => {
    it('lists the default branch newest first, like git log, with the Commit entity', async () => {
      const r = await s.get(`${base}/commits`, { token: null });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/commits.json');
      expect(r.body.map((c: any) => c.id)).to.deep.equal(log('master'));
      expect(r.headers.get('x-total')).to.equal(String(log('master').length));
      expect(r.headers.get('x-page')).to.equal('1');
      const c2 = r.body.find((c: any) => c.id === ids.c2);
      expect(c2).to.deep.equal({
        id: ids.c2,
        short_id: ids.c2.slice(0, 8),
        title: 'Second commit',
        created_at: '2018-01-02T10:00:00.000+00:00',
        parent_ids: [ids.c1],
        message: 'Second commit\n\nWith a body.\n',
        author_name: 'Ann Author',
        author_email: 'ann@example.com',
        authored_date: '2018-01-02T10:00:00.000+00:00',
        committer_name: 'Carl Committer',
        committer_email: 'carl@example.com',
        committed_date: '2018-01-02T10:00:00.000+00:00',
      });
      const f1 = r.body.find((c: any) => c.id === ids.f1);
      expect(f1.authored_date).to.equal('2018-01-03T10:00:00.000-05:00');
      const c1 = r.body.find((c: any) => c.id === ids.c1);
      expect(c1.committed_date).to.equal('2018-01-01T10:00:00.000+02:00');
      const m = r.body.find((c: any) => c.id === ids.m);
      expect(m.parent_ids).to.deep.equal([ids.c3, ids.f2]);
    });

    it('cuts a long title as GitLab does', async () => {
      const r = await s.get(`${base}/commits`, { token: null, query: { per_page: 1 } });
      expect(r.body[0].id).to.equal(ids.c5);
      expect(r.body[0].title).to.equal(commitTitle(LONG_TITLE));
      expect(r.body[0].title.endsWith('…')).to.equal(true);
      expect(Array.from(r.body[0].title).length).to.be.at.most(81);
      expect(r.body[0].title).to.equal(`${'word '.repeat(16).trimEnd()}…`);
    });

    it('pages like git log --skip --max-count', async () => {
      const r = await s.get(`${base}/commits`, { token: null, query: { per_page: 2, page: 2 } });
      expect(r.body.map((c: any) => c.id)).to.deep.equal(log('master', '--skip=2', '--max-count=2'));
      expect(r.headers.get('x-next-page')).to.equal('3');
      expect(r.headers.get('x-prev-page')).to.equal('1');
      expect(r.headers.get('link')).to.match(/page=3&per_page=2/);
    });

    it('filters by path with git history simplification (files, directories, through merges)', async () => {
      for (const p of ['lib/a.rb', 'README.md', 'lib', 'feature.txt', 'lib/c.rb', 'data.bin', 'nope']) {
        const r = await s.get(`${base}/commits`, { token: null, query: { path: p } });
        expect(r.status, p).to.equal(200);
        expect(
          r.body.map((c: any) => c.id),
          p,
        ).to.deep.equal(log('master', '--', p));
        expect(r.headers.get('x-total'), p).to.equal(String(log('master', '--', p).length));
      }
    });

    it('filters by since and until (inclusive) like git log --after/--before', async () => {
      const q = { since: '2018-01-04T10:00:00Z', until: '2018-01-07T10:00:00Z' };
      const r = await s.get(`${base}/commits`, { token: null, query: q });
      expect(r.body.map((c: any) => c.id)).to.deep.equal(log('master', `--after=${q.since}`, `--before=${q.until}`));
      expect(r.body.map((c: any) => c.id)).to.include(ids.c3);
      expect(r.headers.get('x-total')).to.equal(String(r.body.length));
    });

    it('lists another branch, a tag, a sha', async () => {
      for (const ref of ['feature', 'v1.0', 'v1.10', ids.c3, 'improve/awesome']) {
        const r = await s.get(`${base}/commits`, { token: null, query: { ref_name: ref } });
        expect(
          r.body.map((c: any) => c.id),
          ref,
        ).to.deep.equal(log(ref));
      }
    });

    it('lists every ref with all=true, git log --all --reverse reversing each page', async () => {
      const r = await s.get(`${base}/commits`, { token: null, query: { all: true, per_page: 3, page: 2 } });
      expect(r.body.map((c: any) => c.id)).to.deep.equal(log('--all', '--reverse', '--skip=3', '--max-count=3'));
      expect(r.headers.get('x-total')).to.equal(String(log('--all').length));
    });

    it('answers an empty page for an unknown ref (as 10.8)', async () => {
      const r = await s.get(`${base}/commits`, { token: null, query: { ref_name: 'nope' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([]);
      expect(r.headers.get('x-total')).to.equal('0');
    });

    it('answers 400 for bad dates and booleans', async () => {
      const r = await s.get(`${base}/commits`, { token: null, query: { since: 'invalid-date' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'since is invalid' });
      const q = await s.get(`${base}/commits`, { token: null, query: { until: '2018-13-45', all: 'perhaps' } });
      expect(q.status).to.equal(400);
      expect(q.body).to.deep.equal({ error: 'until is invalid, all is invalid' });
    });
  });

  describe('GET /projects/:id/repository/commits/:sha', () => {
    /** git's numstat against the first parent (or nothing), with rename detection; binaries count 0. */
    const numstat = (sha: string, root = false) => {
      const out = root ? w.bareGit(['show', '--numstat', '-M', '--format=', sha]) : w.bareGit(['diff', '--numstat', '-M', `${sha}^1`, sha]);
      let additions = 0;
      let deletions = 0;
      for (const line of out.split('\n').filter(Boolean)) {
        const [a, d] = line.split('\t');
        additions += a === '-' ? 0 : Number(a);
        deletions += d === '-' ? 0 : Number(d);
      }
      return { additions, deletions, total: additions + deletions };
    };

    it('answers CommitDetail with stats equal to git numstat', async () => {
      for (const name of ['c1', 'c2', 'f1', 'c3', 'm', 'c4', 'c5']) {
        const r = await s.get(`${base}/commits/${ids[name]}`, { token: null });
        expect(r.status, name).to.equal(200);
        expectSchema(r.body, 'public_api/v4/commit/detail.json');
        expect(r.body.stats, name).to.deep.equal(numstat(ids[name], name === 'c1'));
        expect(r.body, name).to.include({ id: ids[name], status: null, last_pipeline: null, project_id: projectId });
      }
      const c2 = await s.get(`${base}/commits/${ids.c2}`, { token: null });
      expect(c2.body.stats).to.deep.equal({ additions: 2, deletions: 1, total: 3 });
      const rename = await s.get(`${base}/commits/${ids.c4}`, { token: null });
      expect(rename.body.stats).to.deep.equal({ additions: 0, deletions: 0, total: 0 });
    });

    it('resolves branches (with an escaped slash), tags and short shas', async () => {
      for (const [ref, want] of [
        ['master', ids.c5],
        ['improve%2Fawesome', ids.c2],
        ['v1.10', ids.m],
        [ids.c3.slice(0, 7), ids.c3],
      ]) {
        const r = await s.get(`${base}/commits/${ref}`, { token: null });
        expect(r.status, ref).to.equal(200);
        expect(r.body.id, ref).to.equal(want);
      }
    });

    it('resolves rev-parse ancestry suffixes as Rugged did (master~2, HEAD, merge^2, tag^{})', async () => {
      for (const ref of ['master~2', 'HEAD', 'HEAD^', `${ids.m}^2`, 'v1.10^{}', 'master~2^2~1', 'master~2^2~1^{}']) {
        const r = await s.get(`${base}/commits/${encodeURIComponent(ref)}`, { token: null });
        expect(r.status, ref).to.equal(200);
        expect(r.body.id, ref).to.equal(w.bareGit(['rev-parse', `${ref}^{commit}`]).trim());
      }
    });

    it('leaves stats out with stats=false', async () => {
      const r = await s.get(`${base}/commits/master`, { token: null, query: { stats: false } });
      expect(r.status).to.equal(200);
      expect(r.body).to.not.have.property('stats');
      expect(Object.keys(r.body)).to.include.members(['status', 'last_pipeline', 'project_id']);
    });

    it('answers 404 Commit Not Found for unknown refs and non-commit ids', async () => {
      const blob = w.bareGit(['rev-parse', 'master:README.md']).trim();
      // (A bare `..` segment never reaches the server: URL parsing removes it.)
      for (const ref of ['unknown', 'f'.repeat(40), blob, '...', 'master..feature', 'nope~1', `${ids.c1}~1`, '-x']) {
        const r = await s.get(`${base}/commits/${encodeURIComponent(ref)}`, { token: null });
        expect(r.status, ref).to.equal(404);
        expect(r.body, ref).to.deep.equal({ message: '404 Commit Not Found' });
      }
    });

    it('does not route an unescaped slash', async () => {
      const r = await s.get(`${base}/commits/improve/awesome`, { token: null });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ error: '404 Not Found' });
    });

    it('answers 400 for a bad stats value', async () => {
      const r = await s.get(`${base}/commits/master`, { token: null, query: { stats: 'maybe' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'stats is invalid' });
    });
  });

  describe('GET /projects/:id/repository/tags', () => {
    it('lists tags by commit date, newest first, with the Tag entity', async () => {
      const r = await s.get(`${base}/tags`, { token: null });
      expect(r.status).to.equal(200);
      // GitLab's schema has no room for a tag without a commit (null there too): check the others.
      expectSchema(
        r.body.filter((t: any) => t.commit !== null),
        'public_api/v4/tags.json',
      );
      // blobtag has no commit: it counts as "now", so it comes first in descending order.
      expect(r.body.map((t: any) => t.name)).to.deep.equal(['blobtag', 'v1.10', 'v1.9', 'v1.0']);
      const v110 = r.body[1];
      expect(v110).to.deep.equal({
        name: 'v1.10',
        message: 'Release 1.10\n\nNotes',
        target: w.bareGit(['rev-parse', 'refs/tags/v1.10']).trim(),
        commit: v110.commit,
        release: null,
      });
      expect(v110.target).to.not.equal(ids.m); // the tag object, not the commit
      expect(v110.commit.id).to.equal(ids.m);
      expect(r.body[3]).to.include({ name: 'v1.0', message: null, target: ids.c2 });
      expect(r.body[0].commit).to.equal(null);
    });

    it('sorts by name as versions, and ascending', async () => {
      const r = await s.get(`${base}/tags`, { token: null, query: { order_by: 'name', sort: 'asc' } });
      expect(r.body.map((t: any) => t.name)).to.deep.equal(['blobtag', 'v1.0', 'v1.9', 'v1.10']);
      const u = await s.get(`${base}/tags`, { token: null, query: { sort: 'asc', per_page: 2 } });
      expect(u.body.map((t: any) => t.name)).to.deep.equal(['v1.0', 'v1.9']);
      expect(u.headers.get('x-total')).to.equal('4');
    });

    it('answers 400 for bad sort values', async () => {
      const r = await s.get(`${base}/tags`, { token: null, query: { sort: 'up', order_by: 'size' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'sort does not have a valid value, order_by does not have a valid value' });
    });

    it('answers one tag, or 404 Tag Not Found', async () => {
      const r = await s.get(`${base}/tags/v1.9`, { token: null });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/tag.json');
      expect(r.body).to.include({ name: 'v1.9', message: 'Release 1.9' });
      expect(r.body.commit.id).to.equal(ids.c3);
      for (const name of ['v2', 'master', 'v1', '...']) {
        const q = await s.get(`${base}/tags/${name}`, { token: null });
        expect(q.status, name).to.equal(404);
        expect(q.body, name).to.deep.equal({ message: '404 Tag Not Found' });
      }
    });
  });

  describe('an empty repository', () => {
    it('lists no commits or tags, and has no commit', async () => {
      const c = await s.post('/projects', { token: alice.token, json: { name: 'empty', visibility: 'public' } });
      expect(c.status).to.equal(201);
      const list = await s.get('/projects/alice%2Fempty/repository/commits', { token: null });
      expect(list.status).to.equal(200);
      expect(list.body).to.deep.equal([]);
      const tags = await s.get('/projects/alice%2Fempty/repository/tags', { token: null });
      expect(tags.body).to.deep.equal([]);
      const one = await s.get('/projects/alice%2Fempty/repository/commits/master', { token: null });
      expect(one.status).to.equal(404);
      expect(one.body).to.deep.equal({ message: '404 Commit Not Found' });
    });
  });

  describe('permissions', () => {
    let guest: { user: { id: number }; token: string };
    let reporter: { user: { id: number }; token: string };
    let stranger: { user: { id: number }; token: string };

    before(async () => {
      guest = await s.createUser('carol');
      reporter = await s.createUser('dave');
      stranger = await s.createUser('erin');
      const c = await s.post('/projects', { token: alice.token, json: { name: 'secret', visibility: 'private' } });
      const work = cloneOf(path.join(s.dir, 'repos', 'alice', 'secret.git'));
      work.write('README.md', 'hi\n');
      work.commit('init', '2018-02-01T00:00:00Z');
      work.git(['tag', 't1']);
      work.push('master', '--tags');
      fs.rmSync(work.dir, { recursive: true, force: true });
      await insertMember(s.db, { sourceType: 'project', sourceId: c.body.id, userId: guest.user.id, accessLevel: GUEST });
      await insertMember(s.db, { sourceType: 'project', sourceId: c.body.id, userId: reporter.user.id, accessLevel: REPORTER });
    });

    it('private: reporter reads, guest 403, others 404, checked before parameters', async () => {
      const p = '/projects/alice%2Fsecret/repository';
      for (const url of [`${p}/commits`, `${p}/commits/master`, `${p}/tags`, `${p}/tags/t1`]) {
        expect((await s.get(url, { token: reporter.token })).status, url).to.equal(200);
        const g = await s.get(url, { token: guest.token, query: { since: 'bad', stats: 'bad', sort: 'bad' } });
        expect(g.status, url).to.equal(403);
        expect(g.body, url).to.deep.equal({ message: '403 Forbidden' });
        for (const token of [stranger.token, null]) {
          const h = await s.get(url, { token });
          expect(h.status, url).to.equal(404);
          expect(h.body, url).to.deep.equal({ message: '404 Project Not Found' });
        }
      }
    });
  });
});
