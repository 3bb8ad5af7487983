// Repository reads: tree, blobs, raw blobs, files and raw files, compared with what the real
// git says about the same repository, plus the permission matrix and every error answer.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { cloneOf, gitlabOrder, lsTree, type Work } from '../helpers/git_history.js';
import { insertMember } from '../../src/services/members/members.js';
import { GUEST, REPORTER } from '../../src/policy/levels.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00]);

describe('Repository read API', () => {
  let s: TestServer;
  let alice: { user: { id: number }; token: string };
  let bob: { user: { id: number }; token: string };
  let w: Work;
  let first: string;
  let second: string;
  let third: string;
  const base = '/projects/alice%2Fhist/repository';

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    const created = await s.post('/projects', { token: alice.token, json: { name: 'hist', visibility: 'public' } });
    expect(created.status).to.equal(201);
    w = cloneOf(path.join(s.dir, 'repos', 'alice', 'hist.git'));
    w.write('README.md', 'hello\n');
    w.write('lib/a.rb', 'one\ntwo\nthree\n');
    w.write('lib/sub/deep.txt', 'deep\n');
    w.write('bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
    w.write('img.png', PNG);
    w.write('a.b', 'dot\n');
    w.write('a/x.txt', 'x\n');
    w.write('a-b', 'dash\n');
    w.write('notes.txt', 'plain\n');
    fs.symlinkSync('README.md', path.join(w.dir, 'link'));
    first = w.commit('First commit', '2018-01-01T10:00:00+02:00');
    // A submodule entry (gitlink) straight into the index.
    // (An empty directory is how git leaves an unpopulated submodule, so `add -A` keeps it.)
    w.git(['update-index', '--add', '--cacheinfo', `160000,${first},vendor/mod`]);
    fs.mkdirSync(path.join(w.dir, 'vendor', 'mod'), { recursive: true });
    w.write('lib/a.rb', 'one\nTWO\nthree\nfour\n');
    second = w.commit('Second commit', '2018-01-02T10:00:00+00:00');
    w.write('lib/sub/deep.txt', 'deeper\n');
    third = w.commit('Third commit', '2018-01-03T10:00:00-05:00');
    w.push('master');
  });
  after(async () => s.close());

  describe('GET /projects/:id/repository/tree', () => {
    it('lists the root of the default branch as git ls-tree does, trees then blobs then submodules', async () => {
      const r = await s.get(`${base}/tree`, { token: null, query: { per_page: 100 } });
      expect(r.status).to.equal(200);
      const expected = gitlabOrder(lsTree(w, 'master'));
      expect(r.body).to.deep.equal(expected);
      expect(r.body.map((e: any) => e.name)).to.deep.equal(['a', 'bin', 'lib', 'vendor', 'README.md', 'a-b', 'a.b', 'img.png', 'link', 'notes.txt']);
      const modes = Object.fromEntries(r.body.map((e: any) => [e.path, `${e.type}:${e.mode}`]));
      expect(modes).to.include({ a: 'tree:040000', 'README.md': 'blob:100644', link: 'blob:120000' });
      expect(r.headers.get('x-total')).to.equal(String(expected.length));
    });

    it('lists recursively: all trees (in ls-tree -r -t order), then all blobs, then submodules', async () => {
      const r = await s.get(`${base}/tree`, { token: null, query: { recursive: 'true', per_page: 100 } });
      expect(r.status).to.equal(200);
      const expected = gitlabOrder(lsTree(w, 'master', { recursive: true }));
      expect(r.body).to.deep.equal(expected);
      const byPath = Object.fromEntries(r.body.map((e: any) => [e.path, e]));
      expect(byPath['bin/run.sh'].mode).to.equal('100755');
      expect(byPath['vendor/mod']).to.include({ type: 'commit', mode: '160000', id: first });
      expect(r.body[r.body.length - 1].path).to.equal('vendor/mod');
    });

    it('lists a subdirectory at an older ref, with full paths', async () => {
      const r = await s.get(`${base}/tree`, { token: null, query: { ref: first, path: 'lib' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal(gitlabOrder(lsTree(w, first, { path: 'lib' })));
      expect(r.body.map((e: any) => e.path)).to.deep.equal(['lib/sub', 'lib/a.rb']);
      const slash = await s.get(`${base}/tree`, { token: null, query: { ref: first, path: 'lib/' } });
      expect(slash.body).to.deep.equal(r.body);
    });

    it('pages 20 entries by default with GitLab headers', async () => {
      const all = gitlabOrder(lsTree(w, 'master', { recursive: true }));
      const r = await s.get(`${base}/tree`, { token: null, query: { recursive: 1, per_page: 3, page: 2 } });
      expect(r.body).to.deep.equal(all.slice(3, 6));
      expect(r.headers.get('x-total')).to.equal(String(all.length));
      expect(r.headers.get('x-page')).to.equal('2');
      expect(r.headers.get('x-next-page')).to.equal('3');
      expect(r.headers.get('link')).to.include('rel="next"');
      const d = await s.get(`${base}/tree`, { token: null, query: { recursive: 1 } });
      expect(d.body).to.have.length(Math.min(20, all.length));
      expect(d.headers.get('x-per-page')).to.equal('20');
      const huge = await s.get(`${base}/tree`, { token: null, query: { recursive: 1, per_page: 100000 } });
      expect(huge.headers.get('x-per-page')).to.equal('100');
    });

    it('answers 404 Tree Not Found for an unknown ref and for a path that is not a directory', async () => {
      const r = await s.get(`${base}/tree`, { token: null, query: { ref: 'nope' } });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Tree Not Found' });
      for (const p of ['missing', 'README.md', '../lib', '/lib', 'lib/../lib']) {
        const q = await s.get(`${base}/tree`, { token: null, query: { path: p } });
        expect(q.status, p).to.equal(404);
        expect(q.body, p).to.deep.equal({ message: '404 Tree Not Found' });
      }
    });

    it('answers 400 for a bad recursive or page value', async () => {
      const r = await s.get(`${base}/tree`, { token: null, query: { recursive: 'maybe' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'recursive is invalid' });
      const q = await s.get(`${base}/tree`, { token: null, query: { page: 'x' } });
      expect(q.status).to.equal(400);
      expect(q.body).to.deep.equal({ error: 'page is invalid' });
    });

    it('answers 404 Tree Not Found for an empty repository', async () => {
      const c = await s.post('/projects', { token: alice.token, json: { name: 'empty', visibility: 'public' } });
      expect(c.status).to.equal(201);
      const r = await s.get('/projects/alice%2Fempty/repository/tree', { token: null });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Tree Not Found' });
    });
  });

  describe('GET /projects/:id/repository/blobs/:sha', () => {
    it('answers size, base64 content and sha like git cat-file', async () => {
      const oid = w.bareGit(['rev-parse', 'master:lib/a.rb']).trim();
      const r = await s.get(`${base}/blobs/${oid}`, { token: null });
      expect(r.status).to.equal(200);
      const bytes = Buffer.from(w.bareGit(['cat-file', 'blob', oid]));
      expect(r.body).to.deep.equal({ size: bytes.length, encoding: 'base64', content: bytes.toString('base64'), sha: oid });
      // Abbreviated ids work as in Rugged.
      const short = await s.get(`${base}/blobs/${oid.slice(0, 7)}`, { token: null });
      expect(short.body.sha).to.equal(oid);
    });

    it('answers binary content exactly', async () => {
      const oid = w.bareGit(['rev-parse', 'master:img.png']).trim();
      const r = await s.get(`${base}/blobs/${oid}`, { token: null });
      expect(Buffer.from(r.body.content, 'base64').equals(PNG)).to.equal(true);
      expect(r.body.size).to.equal(PNG.length);
    });

    it('answers 404 Blob Not Found for unknown, malformed and non-blob ids', async () => {
      const tree = w.bareGit(['rev-parse', 'master^{tree}']).trim();
      for (const sha of ['123456', 'f'.repeat(40), 'master', 'zz', tree, third, '..%2F..']) {
        const r = await s.get(`${base}/blobs/${sha}`, { token: null });
        expect(r.status, sha).to.equal(404);
        expect(r.body, sha).to.deep.equal({ message: '404 Blob Not Found' });
        const raw = await s.get(`${base}/blobs/${sha}/raw`, { token: null });
        expect(raw.status, sha).to.equal(404);
        expect(raw.body, sha).to.deep.equal({ message: '404 Blob Not Found' });
      }
    });
  });

  describe('GET /projects/:id/repository/blobs/:sha/raw', () => {
    it('sends text as text/plain; charset=utf-8, inline', async () => {
      const oid = w.bareGit(['rev-parse', 'master:lib/a.rb']).trim();
      const r = await s.get(`${base}/blobs/${oid}/raw`, { token: null });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      expect(r.headers.get('content-disposition')).to.equal('inline');
      expect(r.text).to.equal('one\nTWO\nthree\nfour\n');
    });

    it('sends binary bytes untouched as application/octet-stream (a blob has no name here)', async () => {
      const oid = w.bareGit(['rev-parse', 'master:img.png']).trim();
      const res = await fetch(`${s.url}/api/v4${base}/blobs/${oid}/raw`);
      expect(res.headers.get('content-type')).to.equal('application/octet-stream');
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).to.equal(true);
    });
  });

  describe('GET /projects/:id/repository/files/:file_path', () => {
    it('answers the file at a branch with blob, commit and last commit ids', async () => {
      const r = await s.get(`${base}/files/lib%2Fa.rb`, { token: null, query: { ref: 'master' } });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('application/json');
      const blob = w.bareGit(['rev-parse', 'master:lib/a.rb']).trim();
      expect(r.body).to.deep.equal({
        file_name: 'a.rb',
        file_path: 'lib/a.rb',
        size: 19,
        encoding: 'base64',
        content: Buffer.from('one\nTWO\nthree\nfour\n').toString('base64'),
        ref: 'master',
        blob_id: blob,
        commit_id: third,
        last_commit_id: w.bareGit(['rev-list', '-1', 'master', '--', 'lib/a.rb']).trim(),
      });
      expect(r.body.last_commit_id).to.equal(second);
    });

    it('answers at a tag-less sha and a short sha; last_commit_id follows git rev-list', async () => {
      const r = await s.get(`${base}/files/README.md`, { token: null, query: { ref: third.slice(0, 8) } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ file_name: 'README.md', ref: third.slice(0, 8), commit_id: third, last_commit_id: first });
      const deep = await s.get(`${base}/files/lib%2Fsub%2Fdeep.txt`, { token: null, query: { ref: second } });
      expect(deep.body.last_commit_id).to.equal(w.bareGit(['rev-list', '-1', second, '--', 'lib/sub/deep.txt']).trim());
      expect(deep.body.content).to.equal(Buffer.from('deep\n').toString('base64'));
    });

    it('answers a symlink as its target path, and dots in names', async () => {
      const r = await s.get(`${base}/files/link`, { token: null, query: { ref: 'master' } });
      expect(Buffer.from(r.body.content, 'base64').toString()).to.equal('README.md');
      const d = await s.get(`${base}/files/a.b`, { token: null, query: { ref: 'master' } });
      expect(d.status).to.equal(200);
      expect(d.body.file_name).to.equal('a.b');
    });

    it('answers 400 "ref is missing" without ref', async () => {
      const r = await s.get(`${base}/files/README.md`, { token: null });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'ref is missing' });
    });

    it('answers 404 Commit Not Found for an unknown ref', async () => {
      for (const ref of ['nope', '', 'master..HEAD', '-x', 'f'.repeat(40)]) {
        const r = await s.get(`${base}/files/README.md`, { token: null, query: { ref } });
        expect(r.status, ref).to.equal(404);
        expect(r.body, ref).to.deep.equal({ message: '404 Commit Not Found' });
      }
    });

    it('answers 404 File Not Found for missing files, directories, submodules and traversal', async () => {
      for (const p of ['nope.txt', 'lib', 'vendor%2Fmod', '..%2Fetc%2Fpasswd', 'lib%2F..%2FREADME.md', 'lib%2F%2Fa.rb']) {
        const r = await s.get(`${base}/files/${p}`, { token: null, query: { ref: 'master' } });
        expect(r.status, p).to.equal(404);
        expect(r.body, p).to.deep.equal({ message: '404 File Not Found' });
        const raw = await s.get(`${base}/files/${p}/raw`, { token: null, query: { ref: 'master' } });
        expect(raw.status, p).to.equal(404);
        expect(raw.body, p).to.deep.equal({ message: '404 File Not Found' });
      }
    });

    it('does not route an unencoded slash (GitLab needs %2F)', async () => {
      const r = await s.get(`${base}/files/lib/a.rb`, { token: null, query: { ref: 'master' } });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ error: '404 Not Found' });
    });
  });

  describe('GET /projects/:id/repository/files/:file_path/raw', () => {
    it('sends the bytes with GitLab content types', async () => {
      const t = await s.get(`${base}/files/notes.txt/raw`, { token: null, query: { ref: 'master' } });
      expect(t.status).to.equal(200);
      expect(t.text).to.equal('plain\n');
      expect(t.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      expect(t.headers.get('content-disposition')).to.equal('inline');
      const res = await fetch(`${s.url}/api/v4${base}/files/img.png/raw?ref=master`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).to.equal(true);
    });

    it('answers 400 without ref and 404 for an unknown ref', async () => {
      const r = await s.get(`${base}/files/notes.txt/raw`, { token: null });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'ref is missing' });
      const q = await s.get(`${base}/files/notes.txt/raw`, { token: null, query: { ref: 'nope' } });
      expect(q.status).to.equal(404);
      expect(q.body).to.deep.equal({ message: '404 Commit Not Found' });
    });
  });

  describe('permissions', () => {
    let carol: { user: { id: number }; token: string };
    let dave: { user: { id: number }; token: string };
    const routes = (p: string) => [
      `/projects/${p}/repository/tree`,
      `/projects/${p}/repository/files/README.md?ref=master`,
      `/projects/${p}/repository/files/README.md/raw?ref=master`,
    ];

    before(async () => {
      carol = await s.createUser('carol');
      dave = await s.createUser('dave');
      for (const [name, visibility] of [
        ['secret', 'private'],
        ['inside', 'internal'],
      ]) {
        const c = await s.post('/projects', { token: alice.token, json: { name, visibility } });
        expect(c.status).to.equal(201);
        const work = cloneOf(path.join(s.dir, 'repos', 'alice', `${name}.git`));
        work.write('README.md', 'hi\n');
        work.commit('init', '2018-02-01T00:00:00Z');
        work.push('master');
        if (name === 'secret') {
          await insertMember(s.db, { sourceType: 'project', sourceId: c.body.id, userId: carol.user.id, accessLevel: GUEST });
          await insertMember(s.db, { sourceType: 'project', sourceId: c.body.id, userId: dave.user.id, accessLevel: REPORTER });
        }
      }
    });

    it('private: reporter reads, guest gets 403, non-member and anonymous get 404', async () => {
      const blob = (await s.get('/projects/alice%2Fsecret/repository/tree', { token: dave.token })).body[0].id;
      for (const url of [...routes('alice%2Fsecret'), `/projects/alice%2Fsecret/repository/blobs/${blob}`, `/projects/alice%2Fsecret/repository/blobs/${blob}/raw`]) {
        const ok = await s.get(url, { token: dave.token });
        expect(ok.status, url).to.equal(200);
        const guest = await s.get(url, { token: carol.token });
        expect(guest.status, url).to.equal(403);
        expect(guest.body, url).to.deep.equal({ message: '403 Forbidden' });
        for (const token of [bob.token, null]) {
          const hidden = await s.get(url, { token });
          expect(hidden.status, url).to.equal(404);
          expect(hidden.body, url).to.deep.equal({ message: '404 Project Not Found' });
        }
      }
    });

    it('checks the project before tree parameters', async () => {
      const r = await s.get('/projects/alice%2Fsecret/repository/tree', { token: carol.token, query: { recursive: 'maybe' } });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: '403 Forbidden' });
    });

    it('files GET checks the project before it validates ref', async () => {
      const r = await s.get('/projects/alice%2Fsecret/repository/files/README.md', { token: null });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
    });

    it('internal: any signed-in user reads, anonymous gets 404', async () => {
      for (const url of routes('alice%2Finside')) {
        const ok = await s.get(url, { token: bob.token });
        expect(ok.status, url).to.equal(200);
        const anon = await s.get(url, { token: null });
        expect(anon.status, url).to.equal(404);
        expect(anon.body, url).to.deep.equal({ message: '404 Project Not Found' });
      }
    });
  });
});
