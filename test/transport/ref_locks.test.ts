// A `git push` meeting a `<ref>.lock`: one left behind by a killed process
// is cleared and the push lands; one held right now refuses the ref as git does, and the
// client never sees where the server keeps its repositories.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectFsckClean, head } from '../helpers/bare_git.js';
import { commit, git, gitOk, repoUrl, workRepo } from './git_client.js';

describe('git push and ref lock files', function () {
  this.timeout(60_000);
  let s: TestServer;
  let owner: { token: string };

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('lockie');
  });
  after(async () => s.close());

  async function pushedProject(name: string): Promise<{ path: string; gitdir: string; work: string }> {
    const r = await s.post('/projects', { json: { name }, token: owner.token });
    expect(r.status, r.text).to.equal(201);
    const work = await workRepo();
    await gitOk(['push', '-q', repoUrl(s, r.body.path_with_namespace, owner.token), 'master'], { cwd: work });
    return { path: r.body.path_with_namespace, gitdir: s.deps.repos.pathFor(r.body.path_with_namespace), work };
  }

  it('clears a stale refs/heads/<branch>.lock and lands the push', async () => {
    const p = await pushedProject('stale-lock');
    const lock = path.join(p.gitdir, 'refs', 'heads', 'master.lock');
    fs.writeFileSync(lock, `${head(p.gitdir, 'master')}\n`);
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(lock, hourAgo, hourAgo);

    const sha = await commit(p.work, { 'b.txt': 'b\n' }, 'second');
    const pushed = await git(['push', repoUrl(s, p.path, owner.token), 'master'], { cwd: p.work });
    expect(pushed.code, pushed.stderr).to.equal(0);
    expect(head(p.gitdir, 'master')).to.equal(sha);
    expect(fs.existsSync(lock)).to.equal(false);
    expectFsckClean(p.gitdir);
  });

  it('refuses a ref whose lock is held right now, without showing the server path of the repository', async () => {
    const p = await pushedProject('held-lock');
    const before = head(p.gitdir, 'master');
    const lock = path.join(p.gitdir, 'refs', 'heads', 'master.lock');
    fs.writeFileSync(lock, `${before}\n`);

    await commit(p.work, { 'c.txt': 'c\n' }, 'third');
    const pushed = await git(['push', repoUrl(s, p.path, owner.token), 'master'], { cwd: p.work });
    fs.rmSync(lock);
    expect(pushed.code).to.not.equal(0);
    const output = pushed.stdout + pushed.stderr;
    expect(output).to.contain('[remote rejected] master -> master');
    expect(output).to.contain('cannot lock ref');
    expect(output).to.not.contain(s.dir);
    expect(output).to.not.contain(s.deps.repos.root);
    expect(head(p.gitdir, 'master')).to.equal(before);
  });
});
