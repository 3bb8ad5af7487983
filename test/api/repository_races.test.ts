// Renames and deletes racing repository writes, and what a kill in the
// middle of a git write leaves behind, through the real API on a real repos folder.
// What must hold: a 201 commit is in the repository of the project that answered it; a
// project's folder is never re-created by a writer after a rename or a delete; concurrent
// renames take turns instead of failing; a delete leaves no folder; a truncated object or a
// stale `<ref>.lock` left by a crash does not poison later writes.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { bootServer, type Reply, type TestServer } from '../helpers/server.js';
import { expectFsckClean, git, head } from '../helpers/bare_git.js';
import { repositoriesOnDisk } from '../helpers/disk.js';

type Account = { user: { id: number }; token: string };

describe('Repository writes racing renames and deletes', function () {
  this.timeout(120_000);
  let s: TestServer;
  let alice: Account;
  let root: string;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    root = path.join(s.dir, 'repos');
  });
  after(async () => s.close());

  let counter = 0;
  async function seededProject(): Promise<{ id: number; path: string }> {
    const name = `race${++counter}`;
    const r = await s.post('/projects', { token: alice.token, json: { name } });
    expect(r.status, r.text).to.equal(201);
    const c = await s.post(`/projects/${r.body.id}/repository/commits`, {
      token: alice.token,
      json: { branch: 'master', commit_message: 'seed', actions: [{ action: 'create', file_path: 'README.md', content: 'seed\n' }] },
    });
    expect(c.status, c.text).to.equal(201);
    return { id: r.body.id, path: name };
  }

  const dirOf = (fullPath: string) => path.join(root, `${fullPath}.git`);

  function commitOnBranch(id: number, branch: string, file: string): Promise<Reply> {
    return s.post(`/projects/${id}/repository/commits`, {
      token: alice.token,
      json: { branch, start_branch: 'master', commit_message: file, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] },
    });
  }

  /** A write that lost a race answers a clean 4xx (moved: 409, gone: 404, branch moved: 400), never a 500. */
  function expectCleanAnswer(r: Reply): void {
    expect([201, 400, 404, 409], r.text).to.include(r.status);
    if (r.status === 409) expect(r.body.message).to.be.a('string');
    if (r.status === 404) expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
  }

  it('lands every 201 commit made during a rename in the renamed repository, never in a re-created old folder', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const p = await seededProject();
      const commits = Array.from({ length: 20 }, (_, i) => commitOnBranch(p.id, `t${trial}-b${i}`, `f${i}.txt`));
      await new Promise((r) => setTimeout(r, trial * 3));
      const renamed = await s.put(`/projects/${p.id}`, { token: alice.token, json: { path: `${p.path}-moved` } });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.body.path_with_namespace).to.equal(`alice/${p.path}-moved`);
      const answers = await Promise.all(commits);
      const newDir = dirOf(`alice/${p.path}-moved`);
      for (const [i, r] of answers.entries()) {
        expectCleanAnswer(r);
        if (r.status === 201) expect(head(newDir, `t${trial}-b${i}`), `commit ${i} of trial ${trial}`).to.equal(r.body.id);
      }
      expect(fs.existsSync(dirOf(`alice/${p.path}`)), 'the old folder').to.equal(false);
      expectFsckClean(newDir);
    }
    expect(repositoriesOnDisk(root)).to.deep.equal([1, 2, 3].map((n) => `alice/race${n}-moved`));
  });

  it('takes concurrent renames of one project in turn: each answers 200 and the repository ends where the project says', async () => {
    const p = await seededProject();
    const before = repositoriesOnDisk(root);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => s.put(`/projects/${p.id}`, { token: alice.token, json: { path: `${p.path}-r${i}` } })));
    for (const r of answers) expect(r.status, r.text).to.equal(200);
    const final = await s.get(`/projects/${p.id}`, { token: alice.token });
    const finalPath: string = final.body.path_with_namespace;
    expect(answers.map((r) => r.body.path_with_namespace)).to.include(finalPath);
    expect(git(dirOf(finalPath), ['log', '--format=%s', 'master']).trim()).to.equal('seed');
    const after = repositoriesOnDisk(root);
    expect(after).to.deep.equal([...before.filter((x) => x !== `alice/${p.path}`), finalPath].sort());
  });

  it('deletes a project while commits run: 202, no folder left, and no commit answers a 500', async () => {
    const p = await seededProject();
    const dir = dirOf(`alice/${p.path}`);
    let deleted = false;
    let n = 0;
    const answers: Reply[] = [];
    const writer = async () => {
      while (!deleted || n < 40) {
        const i = n++;
        answers.push(await commitOnBranch(p.id, `d${i}`, `d${i}.txt`));
        if (n > 200) break;
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (n < 8) await new Promise((r) => setTimeout(r, 5));
    const del = await s.delete(`/projects/${p.id}`, { token: alice.token });
    deleted = true;
    expect(del.status, del.text).to.equal(202);
    expect(del.body).to.deep.equal({ message: '202 Accepted' });
    await Promise.all(writers);
    for (const r of answers) expectCleanAnswer(r);
    expect(fs.existsSync(dir), 'the deleted project folder').to.equal(false);
    const gone = await s.get(`/projects/${p.id}`, { token: alice.token });
    expect(gone.status).to.equal(404);
  });

  it('lands every 201 commit made during a group rename in the moved repositories', async () => {
    const g = await s.post('/groups', { token: alice.token, json: { name: 'movers', path: 'movers' } });
    expect(g.status, g.text).to.equal(201);
    const ids: number[] = [];
    for (const name of ['one', 'two']) {
      const r = await s.post('/projects', { token: alice.token, json: { name, namespace_id: g.body.id } });
      expect(r.status, r.text).to.equal(201);
      ids.push(r.body.id);
      const c = await commitOnBranch(r.body.id, 'master', 'seed.txt'); // empty project: start_branch is ignored
      expect(c.status, c.text).to.equal(201);
    }
    const commits = ids.flatMap((id) => Array.from({ length: 10 }, (_, i) => commitOnBranch(id, `g${i}`, `g${i}.txt`).then((r) => ({ id, i, r }))));
    await new Promise((r) => setTimeout(r, 2));
    const renamed = await s.put(`/groups/${g.body.id}`, { token: alice.token, json: { path: 'moved-movers' } });
    expect(renamed.status, renamed.text).to.equal(200);
    for (const { id, i, r } of await Promise.all(commits)) {
      expectCleanAnswer(r);
      const name = id === ids[0] ? 'one' : 'two';
      if (r.status === 201) expect(head(dirOf(`moved-movers/${name}`), `g${i}`)).to.equal(r.body.id);
    }
    expect(fs.existsSync(path.join(root, 'movers'))).to.equal(false);
    for (const name of ['one', 'two']) expectFsckClean(dirOf(`moved-movers/${name}`));
  });

  it('stores a whole object over a truncated one that a kill mid-write left under its final name', async () => {
    const p = await seededProject();
    const dir = dirOf(`alice/${p.path}`);
    const content = Buffer.from('the same content, written again after a crash\n'.repeat(50));
    const store = Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]);
    const oid = crypto.createHash('sha1').update(store).digest('hex');
    const file = path.join(dir, 'objects', oid.slice(0, 2), oid.slice(2));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, zlib.deflateSync(store).subarray(0, 20), { mode: 0o444 }); // what a kill mid-write leaves

    const r = await s.post(`/projects/${p.id}/repository/files/again.txt`, {
      token: alice.token,
      json: { branch: 'master', content: content.toString(), commit_message: 'again' },
    });
    expect(r.status, r.text).to.equal(201);
    const raw = await s.get(`/projects/${p.id}/repository/files/again.txt/raw`, { token: alice.token, query: { ref: 'master' } });
    expect(raw.status, raw.text).to.equal(200);
    expect(raw.text).to.equal(content.toString());
    expectFsckClean(dir);
  });

  it('clears a stale <ref>.lock (left by a kill) instead of refusing the branch forever', async () => {
    const p = await seededProject();
    const dir = dirOf(`alice/${p.path}`);
    const lock = path.join(dir, 'refs', 'heads', 'master.lock');
    fs.writeFileSync(lock, `${head(dir, 'master')}\n`);
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(lock, hourAgo, hourAgo);

    const r = await s.post(`/projects/${p.id}/repository/files/after-crash.txt`, {
      token: alice.token,
      json: { branch: 'master', content: 'x\n', commit_message: 'after the crash' },
    });
    expect(r.status, r.text).to.equal(201);
    expect(fs.existsSync(lock)).to.equal(false);
    expect(git(dir, ['log', '-1', '--format=%s', 'master']).trim()).to.equal('after the crash');
  });

  it('still answers 400 while a <ref>.lock is freshly held by another writer, and leaves that lock alone', async () => {
    const p = await seededProject();
    const dir = dirOf(`alice/${p.path}`);
    const before = head(dir, 'master');
    const lock = path.join(dir, 'refs', 'heads', 'master.lock');
    fs.writeFileSync(lock, `${before}\n`);
    const r = await s.post(`/projects/${p.id}/repository/files/blocked.txt`, {
      token: alice.token,
      json: { branch: 'master', content: 'x\n', commit_message: 'blocked' },
    });
    expect(r.status, r.text).to.equal(400);
    expect(r.body).to.deep.equal({ message: 'Could not update branch master. Please refresh and try again.' });
    expect(fs.existsSync(lock)).to.equal(true);
    expect(head(dir, 'master')).to.equal(before);
    fs.rmSync(lock);
  });
});
