// Repository files API, write side (GitLab 10.8 lib/api/files.rb): create, update and delete
// one file per commit. Every write is checked with the real git on the bare repository, and
// every refused write leaves refs and objects as they were.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { projectWithRoles } from '../helpers/roles.js';
import { repoDir } from '../helpers/projects.js';
import { git, gitBytes, head, lsTree, pushCommit, refState, expectFsckClean, expectUntouched } from '../helpers/bare_git.js';
import { projectLockKey } from '../../src/services/repository/recovery.js';

type Account = { user: { id: number; name: string; email: string }; token: string };

const enc = encodeURIComponent;

describe('Repository files API (writes)', () => {
  let s: TestServer;
  let alice: Account;
  let dev: Account;
  let reporter: Account;
  let guest: Account;
  let stranger: Account;

  before(async () => {
    s = await bootServer();
    alice = (await s.createUser('alice')) as Account;
    dev = (await s.createUser('dev')) as Account;
    reporter = (await s.createUser('reporter')) as Account;
    guest = (await s.createUser('guest')) as Account;
    stranger = (await s.createUser('stranger')) as Account;
  });
  after(async () => s.close());

  let counter = 0;
  /** A fresh private project of alice's (dev: developer, reporter, guest members) and its bare repo. */
  async function project(opts: { visibility?: string } = {}): Promise<{ id: number; dir: string; url: string }> {
    const r = await projectWithRoles(s, alice, { dev, reporter, guest }, { name: `p${++counter}`, visibility: opts.visibility ?? 'private' });
    const id = r.id as number;
    return { id, dir: repoDir(s, r.path_with_namespace), url: `/projects/${id}/repository/files` };
  }

  /**
   * A project whose master holds README.md ("hello\n") and lib/a.rb ("puts 1\n"). The first
   * commit protected master (default branch protection); alice unprotects it so that `dev`,
   * a developer, may write to it (protection itself: protected_branches.test.ts).
   */
  async function seeded(): Promise<{ id: number; dir: string; url: string }> {
    const p = await project();
    for (const [file, content] of [
      ['README.md', 'hello\n'],
      ['lib/a.rb', 'puts 1\n'],
    ]) {
      const r = await s.post(`${p.url}/${enc(file)}`, { token: alice.token, json: { branch: 'master', content, commit_message: `Add ${file}` } });
      expect(r.status, r.text).to.equal(201);
    }
    const u = await s.delete(`/projects/${p.id}/protected_branches/master`, { token: alice.token });
    expect(u.status, u.text).to.equal(204);
    return p;
  }

  const show = (dir: string, rev: string) => git(dir, ['show', rev]);

  describe('POST (create)', () => {
    it('makes the first commit of an empty project, which sets the default branch, HEAD and statistics', async () => {
      const p = await project();
      const before = (await s.get(`/projects/${p.id}`, { token: alice.token })).body.last_activity_at;
      const r = await s.post(`${p.url}/lib%2Fa.rb`, { token: alice.token, json: { branch: 'master', content: 'puts 8\n', commit_message: 'Added newfile' } });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({ file_path: 'lib/a.rb', branch: 'master' });
      expect(r.headers.get('content-type')).to.equal('application/json');

      expect(show(p.dir, 'master:lib/a.rb')).to.equal('puts 8\n');
      // The message is stored exactly as given (no newline appended), author = committer = the user.
      const raw = git(p.dir, ['cat-file', 'commit', 'master']);
      expect(raw.endsWith('\n\nAdded newfile')).to.equal(true);
      expect(raw).to.not.match(/^parent /m);
      expect(git(p.dir, ['log', '-1', '--format=%an|%ae|%cn|%ce', 'master']).trim()).to.equal('Alice|alice@example.com|Alice|alice@example.com');
      expect(fs.readFileSync(path.join(p.dir, 'HEAD'), 'utf8').trim()).to.equal('ref: refs/heads/master');
      expectFsckClean(p.dir);

      const proj = await s.get(`/projects/${p.id}`, { token: alice.token, query: { statistics: true } });
      expect(proj.body.default_branch).to.equal('master');
      expect(proj.body.statistics.commit_count).to.equal(1);
      expect(proj.body.statistics.repository_size).to.be.greaterThan(0);
      expect(Date.parse(proj.body.last_activity_at)).to.be.greaterThan(Date.parse(before));
    });

    it('makes whatever branch the first commit goes to the default branch', async () => {
      const p = await project();
      const r = await s.post(`${p.url}/a.txt`, { token: alice.token, json: { branch: 'develop', content: 'x', commit_message: 'first' } });
      expect(r.status).to.equal(201);
      expect(fs.readFileSync(path.join(p.dir, 'HEAD'), 'utf8').trim()).to.equal('ref: refs/heads/develop');
      expect((await s.get(`/projects/${p.id}`, { token: alice.token })).body.default_branch).to.equal('develop');
      // A later branch does not take it over.
      const r2 = await s.post(`${p.url}/b.txt`, { token: alice.token, json: { branch: 'other', start_branch: 'develop', content: 'y', commit_message: 'second' } });
      expect(r2.status).to.equal(201);
      expect((await s.get(`/projects/${p.id}`, { token: alice.token })).body.default_branch).to.equal('develop');
    });

    it('keeps commit_count to the default branch and recounts it after each write', async () => {
      const p = await seeded();
      await s.post(`${p.url}/x`, { token: alice.token, json: { branch: 'side', start_branch: 'master', content: 'x', commit_message: 'side' } });
      let stats = (await s.get(`/projects/${p.id}`, { token: alice.token, query: { statistics: true } })).body.statistics;
      expect(stats.commit_count).to.equal(2);
      await s.post(`${p.url}/y`, { token: alice.token, json: { branch: 'master', content: 'y', commit_message: 'more' } });
      stats = (await s.get(`/projects/${p.id}`, { token: alice.token, query: { statistics: true } })).body.statistics;
      expect(stats.commit_count).to.equal(Number(git(p.dir, ['rev-list', '--count', 'master']).trim()));
      expect(stats.commit_count).to.equal(3);
    });

    it('uses author_name and author_email only when both are given; the committer is always the user', async () => {
      const p = await seeded();
      let r = await s.post(`${p.url}/b.txt`, {
        token: dev.token,
        json: { branch: 'master', content: 'b', commit_message: 'by someone', author_name: 'Jane Doe', author_email: 'jane@example.com' },
      });
      expect(r.status).to.equal(201);
      expect(git(p.dir, ['log', '-1', '--format=%an|%ae|%cn|%ce', 'master']).trim()).to.equal('Jane Doe|jane@example.com|Dev|dev@example.com');
      r = await s.post(`${p.url}/c.txt`, { token: dev.token, json: { branch: 'master', content: 'c', commit_message: 'half', author_name: 'Jane Doe' } });
      expect(r.status).to.equal(201);
      expect(git(p.dir, ['log', '-1', '--format=%an|%ae', 'master']).trim()).to.equal('Dev|dev@example.com');
    });

    it('refuses an author that git cannot store, without a commit', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      const r = await s.post(`${p.url}/b.txt`, { token: dev.token, json: { branch: 'master', content: 'b', commit_message: 'm', author_name: '<>', author_email: 'x@y' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'Failed to parse signature - Signature cannot have an empty name or email' });
      expectUntouched(p.dir, before);
    });

    it('stores base64 content byte for byte, and text with CRLF line ends as LF (GitLab autocrlf=input)', async () => {
      const p = await seeded();
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABAQMAAAAl21bKAAAAA1BMVEUAAACnej3aAAAAAXRSTlMAQObYZgAAAApJREFUCNdjYAAAAAIAAeIhvDMAAAAASUVORK5CYII=';
      let r = await s.post(`${p.url}/test%2Ebin`, {
        token: dev.token,
        json: { branch: 'master', content: png, encoding: 'base64', commit_message: 'Binary file with a \n should not be touched' },
      });
      expect(r.status).to.equal(201);
      expect(gitBytes(p.dir, ['show', 'master:test.bin']).toString('base64')).to.equal(png);

      r = await s.post(`${p.url}/crlf.txt`, { token: dev.token, json: { branch: 'master', content: 'a\r\nb\r\n', commit_message: 'crlf' } });
      expect(r.status).to.equal(201);
      expect(show(p.dir, 'master:crlf.txt')).to.equal('a\nb\n');

      const binary = Buffer.from([0, 1, 13, 10, 2]);
      r = await s.post(`${p.url}/raw.bin`, { token: dev.token, json: { branch: 'master', content: binary.toString('base64'), encoding: 'base64', commit_message: 'bin' } });
      expect(r.status).to.equal(201);
      expect(gitBytes(p.dir, ['show', 'master:raw.bin']).equals(binary)).to.equal(true);
    });

    it('stores a commit message without carriage returns, as GitLab did', async () => {
      const p = await seeded();
      await s.post(`${p.url}/m.txt`, { token: dev.token, json: { branch: 'master', content: 'm', commit_message: 'Title\r\n\r\nBody' } });
      expect(git(p.dir, ['cat-file', 'commit', 'master']).endsWith('\n\nTitle\n\nBody')).to.equal(true);
    });

    it('answers 400 when the file exists, leaving the repository untouched', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      const r = await s.post(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'again' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'A file with this name already exists' });
      expectUntouched(p.dir, before);
    });

    it('refuses a file where a directory is, and a directory where a file is', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.post(`${p.url}/lib`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'A directory with this name already exists' });
      r = await s.post(`${p.url}/README.md%2Fx`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'A file with this name already exists' });
      expectUntouched(p.dir, before);
    });

    it('refuses paths that leave or corrupt the tree, each with its message and no change', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      const cases: [string, string][] = [
        ['../etc/passwd', 'Path cannot include directory traversal'],
        ['lib/../../x', 'Path cannot include directory traversal'],
        ['lib/..', 'Path cannot include directory traversal'],
        ['/etc/passwd', 'Path cannot include directory traversal'],
        ['a//b', "invalid path: 'a//b'"],
        ['./a', "invalid path: './a'"],
        ['dir/', "invalid path: 'dir/'"],
        ['.git/config', "invalid path: '.git/config'"],
        ['sub/.GIT/hooks/x', "invalid path: 'sub/.GIT/hooks/x'"],
      ];
      for (const [file, message] of cases) {
        const r = await s.post(`${p.url}/${enc(file)}`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'evil' } });
        expect(r.status, file).to.equal(400);
        expect(r.body, file).to.deep.equal({ message });
      }
      expectUntouched(p.dir, before);
    });

    it('accepts content that is not valid base64 without failing (decoded leniently, as Ruby does)', async () => {
      const p = await seeded();
      const r = await s.post(`${p.url}/odd.bin`, { token: dev.token, json: { branch: 'master', content: '%%%not base64!!', encoding: 'base64', commit_message: 'odd' } });
      expect(r.status).to.equal(201);
      expectFsckClean(p.dir);
    });

    it('stores large content intact', async () => {
      const p = await seeded();
      const big = 'x'.repeat(3 * 1024 * 1024 - 7) + '\n';
      const r = await s.post(`${p.url}/big.txt`, { token: dev.token, json: { branch: 'master', content: big, commit_message: 'big' } });
      expect(r.status).to.equal(201);
      expect(git(p.dir, ['cat-file', '-s', 'master:big.txt']).trim()).to.equal(String(big.length));
      expectFsckClean(p.dir);
    });

    it('answers the parameter errors in Grape words once permissions pass, and refuses other encodings', async () => {
      const p = await seeded();
      let r = await s.post(`${p.url}/a.txt`, { token: dev.token });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'branch is missing, commit_message is missing, content is missing' });
      r = await s.post(`${p.url}/a.txt`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'm', encoding: 'utf-16' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'encoding does not have a valid value' });
      r = await s.post(`${p.url}/a.txt`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'm', encoding: 'text' } });
      expect(r.status).to.equal(201);
    });

    it('accepts form-encoded bodies (curl --data)', async () => {
      const p = await seeded();
      const r = await s.post(`${p.url}/form.txt`, { token: dev.token, form: { branch: 'master', content: 'via form', commit_message: 'form' } });
      expect(r.status).to.equal(201);
      expect(show(p.dir, 'master:form.txt')).to.equal('via form');
    });
  });

  describe('branches of a write', () => {
    it('needs the branch to exist unless start_branch is given', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.post(`${p.url}/n.txt`, { token: dev.token, json: { branch: 'nope', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'You can only create or edit files when you are on a branch' });
      r = await s.post(`${p.url}/n.txt`, { token: dev.token, json: { branch: 'new', start_branch: 'missing', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'You can only create or edit files when you are on a branch' });
      expectUntouched(p.dir, before);
    });

    it('creates a new branch from start_branch, leaving the start branch where it was', async () => {
      const p = await seeded();
      const master = head(p.dir, 'master');
      const r = await s.post(`${p.url}/feature.txt`, { token: dev.token, json: { branch: 'feature/x', start_branch: 'master', content: 'f', commit_message: 'feature' } });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({ file_path: 'feature.txt', branch: 'feature/x' });
      expect(head(p.dir, 'master')).to.equal(master);
      expect(git(p.dir, ['rev-parse', 'feature/x^']).trim()).to.equal(master);
      expect(show(p.dir, 'feature/x:feature.txt')).to.equal('f');
      expectFsckClean(p.dir);
    });

    it('refuses start_branch when the branch already exists', async () => {
      const p = await seeded();
      await s.post(`${p.url}/o.txt`, { token: dev.token, json: { branch: 'other', start_branch: 'master', content: 'o', commit_message: 'o' } });
      const before = refState(p.dir);
      const r = await s.post(`${p.url}/n.txt`, { token: dev.token, json: { branch: 'other', start_branch: 'master', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: "A branch called 'other' already exists. Switch to that branch in order to make changes" });
      expectUntouched(p.dir, before);
    });

    it('refuses a new branch name git cannot have', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      for (const name of ['bad..name', 'with space', 'x.lock', '-x', 'refs/heads/x']) {
        const r = await s.post(`${p.url}/n.txt`, { token: dev.token, json: { branch: name, start_branch: 'master', content: 'x', commit_message: 'm' } });
        expect(r.status, name).to.equal(400);
        expect(r.body, name).to.deep.equal({ message: `Something went wrong when we tried to create '${name}' for you: Branch name is invalid` });
      }
      // In an empty repository too, where there is no start branch to check (and where, every
      // branch being protected until the first commit, only a master may write).
      const e = await project();
      const emptyBefore = refState(e.dir);
      const r = await s.post(`${e.url}/n.txt`, { token: alice.token, json: { branch: 'a..b', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: "Something went wrong when we tried to create 'a..b' for you: Branch name is invalid" });
      expectUntouched(p.dir, before);
      expectUntouched(e.dir, emptyBefore);
    });

    it('refuses a branch that would share its path with another (a and a/b)', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      const r = await s.post(`${p.url}/n.txt`, { token: dev.token, json: { branch: 'master/sub', start_branch: 'master', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: "Something went wrong when we tried to create 'master/sub' for you: a branch called 'master' is in the way" });
      expectUntouched(p.dir, before);
    });
  });

  describe('PUT (update)', () => {
    it('updates a file, keeping its mode, with the user as author and committer', async () => {
      const p = await seeded();
      // Make lib/a.rb executable with git, then update it through the API.
      const c = await s.post(`/projects/${p.id}/repository/commits`, {
        token: dev.token,
        json: { branch: 'master', commit_message: 'chmod', actions: [{ action: 'chmod', file_path: 'lib/a.rb', execute_filemode: true }] },
      });
      expect(c.status, c.text).to.equal(201);
      const r = await s.put(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'puts 2\n', commit_message: 'Changed file' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ file_path: 'lib/a.rb', branch: 'master' });
      expect(show(p.dir, 'master:lib/a.rb')).to.equal('puts 2\n');
      expect(lsTree(p.dir, 'master')['lib/a.rb']).to.match(/^100755 /);
      expect(git(p.dir, ['log', '-1', '--format=%an|%cn|%s', 'master']).trim()).to.equal('Dev|Dev|Changed file');
      expectFsckClean(p.dir);
    });

    it('accepts the last commit of the file as last_commit_id, and refuses a stale one', async () => {
      const p = await seeded();
      const lastForFile = git(p.dir, ['log', '-1', '--format=%H', 'master', '--', 'lib/a.rb']).trim();
      await s.post(`${p.url}/other.txt`, { token: dev.token, json: { branch: 'master', content: 'o', commit_message: 'unrelated' } });
      let r = await s.put(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'v2', commit_message: 'ok', last_commit_id: lastForFile } });
      expect(r.status).to.equal(200);

      const before = refState(p.dir);
      r = await s.put(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'v3', commit_message: 'stale', last_commit_id: lastForFile } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'You are attempting to update a file that has changed since you started editing it.' });
      r = await s.put(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'v3', commit_message: 'stale', last_commit_id: 'stale' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'You are attempting to update a file that has changed since you started editing it.' });
      expectUntouched(p.dir, before);
    });

    it('refuses content identical to the current one (it would be an empty commit)', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.put(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'puts 1\n', commit_message: 'same' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'You are attempting to update a file with the same content' });
      // The same bytes sent as base64, or with CRLF line ends, are still the same content.
      r = await s.put(`${p.url}/lib%2Fa.rb`, {
        token: dev.token,
        json: { branch: 'master', content: Buffer.from('puts 1\n').toString('base64'), encoding: 'base64', commit_message: 'same' },
      });
      expect(r.status).to.equal(400);
      r = await s.put(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'puts 1\r\n', commit_message: 'same' } });
      expect(r.status).to.equal(400);
      expectUntouched(p.dir, before);
    });

    it('answers 400 for a missing file', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      const r = await s.put(`${p.url}/nope.txt`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: "A file with this name doesn't exist" });
      expectUntouched(p.dir, before);
    });
  });

  describe('DELETE', () => {
    it('deletes a file with 204 and an empty body; empty directories go with it', async () => {
      const p = await seeded();
      const r = await s.delete(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', commit_message: 'Delete a' } });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect(Object.keys(lsTree(p.dir, 'master'))).to.deep.equal(['README.md']);
      expect(git(p.dir, ['log', '-1', '--format=%s', 'master']).trim()).to.equal('Delete a');
      expectFsckClean(p.dir);
    });

    it('answers 400 for a missing file and for a stale last_commit_id', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.delete(`${p.url}/nope.txt`, { token: dev.token, json: { branch: 'master', commit_message: 'm' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: "A file with this name doesn't exist" });
      r = await s.delete(`${p.url}/README.md`, { token: dev.token, json: { branch: 'master', commit_message: 'm', last_commit_id: '0'.repeat(40) } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'You are attempting to delete a file that has been previously updated.' });
      r = await s.delete(`${p.url}/README.md`, { token: dev.token });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'branch is missing, commit_message is missing' });
      expectUntouched(p.dir, before);
    });
  });

  describe('permissions (checked before parameters)', () => {
    it('needs developer access: guests and reporters get 403, strangers and anonymous 404 on a private project', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      for (const who of [guest, reporter]) {
        for (const method of ['post', 'put', 'delete'] as const) {
          const r = await s[method](`${p.url}/lib%2Fa.rb`, { token: who.token });
          expect(r.status).to.equal(403);
          expect(r.body).to.deep.equal({ message: '403 Forbidden' });
        }
      }
      for (const token of [stranger.token, null]) {
        const r = await s.post(`${p.url}/x.txt`, { token, json: { branch: 'master', content: 'x', commit_message: 'm' } });
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
      }
      expectUntouched(p.dir, before);
    });

    it('answers an anonymous write to a public project 401 (it needs a user), a non-member 403', async () => {
      const p = await project({ visibility: 'public' });
      const r = await s.post(`${p.url}/x.txt`, { token: null, json: { branch: 'master', content: 'x', commit_message: 'm' } });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
      const n = await s.post(`${p.url}/x.txt`, { token: stranger.token, json: { branch: 'master', content: 'x', commit_message: 'm' } });
      expect(n.status).to.equal(403);
    });
  });

  describe('concurrency', () => {
    it('refuses a write whose branch moved between reading its head and moving the ref', async () => {
      const p = await seeded();
      const key = projectLockKey(p.id);
      const locks = s.deps.repos.locks;
      let pending!: Promise<{ status: number; body: unknown }>;
      let pushed = '';
      // Hold the repository lock: the write builds its commit, then waits to move the ref.
      await locks.run(key, async () => {
        pending = s.put(`${p.url}/lib%2Fa.rb`, { token: dev.token, json: { branch: 'master', content: 'mine', commit_message: 'mine' } });
        for (let i = 0; i < 500 && locks.pending(key) < 2; i++) await new Promise((r) => setTimeout(r, 10));
        expect(locks.pending(key)).to.equal(2);
        pushed = pushCommit(p.dir, 'master', { 'pushed.txt': 'from git\n' }); // someone pushes meanwhile
      });
      const r = await pending;
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'Could not update branch master. Please refresh and try again.' });
      expect(head(p.dir, 'master')).to.equal(pushed);
      expect(show(p.dir, 'master:lib/a.rb')).to.equal('puts 1\n');
      expectFsckClean(p.dir);
    });

    it('refuses the write while another git process holds the ref lock, and leaves its lock alone', async () => {
      const p = await seeded();
      const lock = path.join(p.dir, 'refs', 'heads', 'master.lock');
      fs.writeFileSync(lock, '');
      try {
        const before = refState(p.dir);
        const r = await s.post(`${p.url}/x.txt`, { token: dev.token, json: { branch: 'master', content: 'x', commit_message: 'm' } });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ message: 'Could not update branch master. Please refresh and try again.' });
        expect(fs.existsSync(lock)).to.equal(true);
        expect(refState(p.dir)).to.equal(before);
      } finally {
        fs.rmSync(lock);
      }
      expectFsckClean(p.dir);
    });

    it('never loses a commit: parallel creates on one branch each land or get the 400, history stays linear', async () => {
      const p = await seeded();
      const start = Number(git(p.dir, ['rev-list', '--count', 'master']).trim());
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.post(`${p.url}/par%2Ff${i}.txt`, { token: dev.token, json: { branch: 'master', content: `file ${i}\n`, commit_message: `parallel ${i}` } }),
        ),
      );
      const landed = replies
        .map((r, i) => [r, i] as const)
        .filter(([r]) => r.status === 201)
        .map(([, i]) => i);
      for (const r of replies) {
        if (r.status !== 201) {
          expect(r.status).to.equal(400);
          expect(r.body).to.deep.equal({ message: 'Could not update branch master. Please refresh and try again.' });
        }
      }
      expect(landed.length).to.be.greaterThan(0);
      const files = Object.keys(lsTree(p.dir, 'master')).filter((f) => f.startsWith('par/'));
      expect(files.sort()).to.deep.equal(landed.map((i) => `par/f${i}.txt`).sort());
      expect(Number(git(p.dir, ['rev-list', '--count', 'master']).trim())).to.equal(start + landed.length);
      expect(git(p.dir, ['rev-list', '--min-parents=2', 'master']).trim()).to.equal('');
      expectFsckClean(p.dir);
    });

    it('lands every one of several sequential writes (a python-gitlab script)', async () => {
      const p = await seeded();
      for (let i = 0; i < 5; i++) {
        const r = await s.post(`${p.url}/seq${i}.txt`, { token: dev.token, json: { branch: 'master', content: `${i}`, commit_message: `seq ${i}` } });
        expect(r.status).to.equal(201);
      }
      expect(git(p.dir, ['log', '--format=%s', '-5', 'master']).trim().split('\n')).to.deep.equal(['seq 4', 'seq 3', 'seq 2', 'seq 1', 'seq 0']);
    });
  });
});
