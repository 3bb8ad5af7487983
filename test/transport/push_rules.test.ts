// The checks on each ref of a push: protected branches, the default branch, existing tags,
// refused with GitLab's messages before any ref moves; and concurrent pushes to one branch.
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectFsckClean, git as bareGit } from '../helpers/bare_git.js';
import type { UserRow } from '../../src/store/rows.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER, MASTER } from '../../src/policy/levels.js';
import { commit, git, gitOk, repoUrl, tempDir, workRepo } from './git_client.js';

type Account = { user: UserRow; token: string };

const REJECTED = (ref: string) => `! [remote rejected] ${ref} -> ${ref} (pre-receive hook declined)`;

describe('git push: ref checks', function () {
  this.timeout(60_000);
  let s: TestServer;
  let owner: Account;
  let dev: Account;
  let master: Account;
  let p: { id: number; path: string; gitdir: string };
  let dir: string; // the developer's work tree, tracking the project

  const refs = () => bareGit(p.gitdir, ['for-each-ref', '--format=%(refname) %(objectname)']);
  const url = (token: string) => repoUrl(s, p.path, token);

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('oscar');
    dev = await s.createUser('dora');
    master = await s.createUser('max');
    const r = await s.post('/projects', { json: { name: 'rules', visibility: 'private' }, token: owner.token });
    p = { id: r.body.id, path: r.body.path_with_namespace, gitdir: s.deps.repos.pathFor(r.body.path_with_namespace) };
    await insertMember(s.db, { sourceType: 'project', sourceId: p.id, userId: dev.user.id, accessLevel: DEVELOPER });
    await insertMember(s.db, { sourceType: 'project', sourceId: p.id, userId: master.user.id, accessLevel: MASTER });
    const rule = await s.post(`/projects/${p.id}/protected_branches`, { json: { name: 'release/*', push_access_level: 30 }, token: owner.token });
    expect(rule.status, rule.text).to.equal(201);
  });
  after(async () => s.close());

  it('refuses a developer the first push to an empty project (every branch is protected)', async () => {
    const work = await workRepo();
    const r = await git(['push', url(dev.token), 'master'], { cwd: work });
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain('remote: GitLab: You are not allowed to push code to protected branches on this project.');
    expect(r.stderr).to.contain(REJECTED('master'));
    expect(refs()).to.equal('');
  });

  it('lets the owner push first; the default branch is then protected for developers', async () => {
    dir = await workRepo([{ 'a.txt': '1\n' }, { 'a.txt': '2\n' }]);
    await gitOk(['push', '-q', url(owner.token), 'master'], { cwd: dir });
    await gitOk(['remote', 'add', 'origin', url(dev.token)], { cwd: dir });
    await gitOk(['fetch', '-q', 'origin'], { cwd: dir });
    const before = refs();
    const sha = await commit(dir, { 'b.txt': 'dev\n' }, 'dev change');
    const r = await git(['push', 'origin', 'master'], { cwd: dir });
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain('remote: GitLab: You are not allowed to push code to protected branches on this project.');
    expect(r.stderr).to.contain(REJECTED('master'));
    expect(refs()).to.equal(before);
    // Quarantine: the refused push left no object behind.
    expect(() => bareGit(p.gitdir, ['cat-file', '-e', sha])).to.throw();
    await gitOk(['reset', '-q', '--hard', 'origin/master'], { cwd: dir });
  });

  it('accepts force pushes and deletions of unprotected branches', async () => {
    await gitOk(['checkout', '-q', '-b', 'topic'], { cwd: dir });
    await commit(dir, { 't.txt': '1\n' }, 'topic 1');
    await gitOk(['push', '-q', 'origin', 'topic'], { cwd: dir });
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: dir });
    const rewritten = await commit(dir, { 't.txt': 'rewritten\n' }, 'topic 1 again');
    await gitOk(['push', '-q', '--force', 'origin', 'topic'], { cwd: dir });
    expect(bareGit(p.gitdir, ['rev-parse', 'refs/heads/topic']).trim()).to.equal(rewritten);
    await gitOk(['push', '-q', 'origin', ':topic'], { cwd: dir });
    expect(refs()).to.not.contain('refs/heads/topic');
    await gitOk(['checkout', '-q', 'master'], { cwd: dir });
    expectFsckClean(p.gitdir);
  });

  it("refuses a force push of a protected branch, even by its owner, with GitLab's message", async () => {
    const work = path.join(tempDir(), 'o');
    await gitOk(['clone', '-q', url(owner.token), work]);
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: work });
    const sha = await commit(work, { 'x.txt': 'rewrite\n' }, 'rewrite history');
    const before = refs();
    const r = await git(['push', '--force', 'origin', 'master'], { cwd: work });
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain('remote: GitLab: You are not allowed to force push code to a protected branch on this project.');
    expect(r.stderr).to.contain(REJECTED('master'));
    expect(refs()).to.equal(before);
    expect(() => bareGit(p.gitdir, ['cat-file', '-e', sha])).to.throw();

    // A fast-forward by the owner goes through.
    await gitOk(['reset', '-q', '--hard', 'origin/master'], { cwd: work });
    const next = await commit(work, { 'y.txt': 'ff\n' }, 'fast forward');
    await gitOk(['push', '-q', 'origin', 'master'], { cwd: work });
    expect(bareGit(p.gitdir, ['rev-parse', 'refs/heads/master']).trim()).to.equal(next);
  });

  it('refuses deleting the default branch, and protected branches over git', async () => {
    const r = await git(['push', url(owner.token), ':master'], { cwd: dir });
    expect(r.stderr).to.contain('remote: GitLab: The default branch of a project cannot be deleted.');
    expect(r.stderr).to.contain('! [remote rejected] master (pre-receive hook declined)');

    await gitOk(['fetch', '-q', 'origin'], { cwd: dir });
    await gitOk(['push', '-q', 'origin', 'origin/master:refs/heads/release/1'], { cwd: dir }); // developers may push release/*
    const byDev = await git(['push', 'origin', ':release/1'], { cwd: dir });
    expect(byDev.stderr).to.contain(
      'remote: GitLab: You are not allowed to delete protected branches from this project. Only a project master or owner can delete a protected branch.',
    );
    const byMaster = await git(['push', url(master.token), ':release/1'], { cwd: dir });
    expect(byMaster.stderr).to.contain('remote: GitLab: You can only delete protected branches using the web interface.');
    expect(byMaster.stderr).to.contain('! [remote rejected] release/1 (pre-receive hook declined)');
    expect(refs()).to.contain('refs/heads/release/1');
  });

  it('refuses the whole push when one of its refs is refused', async () => {
    const before = refs();
    await gitOk(['checkout', '-q', '-b', 'fine', 'origin/master'], { cwd: dir });
    await commit(dir, { 'f.txt': 'f\n' }, 'fine');
    const r = await git(['push', 'origin', 'fine', 'fine:master'], { cwd: dir });
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain('remote: GitLab: You are not allowed to push code to protected branches on this project.');
    expect(r.stderr).to.contain('! [remote rejected] fine -> fine (pre-receive hook declined)');
    expect(refs()).to.equal(before);
  });

  it('lets developers create tags but only masters change existing ones', async () => {
    await gitOk(['tag', 'v1', 'origin/master'], { cwd: dir });
    await gitOk(['push', '-q', 'origin', 'v1'], { cwd: dir });
    await gitOk(['tag', '-f', 'v1', 'origin/master~1'], { cwd: dir });
    const moved = await git(['push', '--force', 'origin', 'v1'], { cwd: dir });
    expect(moved.stderr).to.contain('remote: GitLab: You are not allowed to change existing tags on this project.');
    const deleted = await git(['push', 'origin', ':refs/tags/v1'], { cwd: dir });
    expect(deleted.stderr).to.contain('remote: GitLab: You are not allowed to change existing tags on this project.');
    const tip = bareGit(p.gitdir, ['rev-parse', 'refs/heads/master']).trim();
    expect(bareGit(p.gitdir, ['rev-parse', 'refs/tags/v1']).trim()).to.equal(tip);
    await gitOk(['push', '-q', '--force', url(master.token), 'v1'], { cwd: dir });
    expect(bareGit(p.gitdir, ['rev-parse', 'refs/tags/v1']).trim()).to.not.equal(tip);
    await gitOk(['push', '-q', url(master.token), ':refs/tags/v1'], { cwd: dir });
    expect(refs()).to.not.contain('refs/tags/v1');
  });

  it('settles concurrent pushes to one branch: one lands, the other is refused, nothing lost', async () => {
    for (let round = 0; round < 4; round++) {
      const base = bareGit(p.gitdir, ['rev-parse', 'refs/heads/master']).trim();
      const a = path.join(tempDir(), 'a');
      const b = path.join(tempDir(), 'b');
      await gitOk(['clone', '-q', url(owner.token), a]);
      await gitOk(['clone', '-q', url(owner.token), b]);
      const shaA = await commit(a, { 'race.txt': `a${round}\n` }, `a ${round}`);
      const shaB = await commit(b, { 'race.txt': `b${round}\n` }, `b ${round}`);
      const [ra, rb] = await Promise.all([git(['push', 'origin', 'master'], { cwd: a }), git(['push', 'origin', 'master'], { cwd: b })]);
      const won = [ra.code, rb.code].filter((c) => c === 0).length;
      expect(won, `${ra.stderr}\n${rb.stderr}`).to.equal(1);
      const loser = ra.code === 0 ? rb : ra;
      expect(loser.stderr).to.match(/\[rejected\]|\[remote rejected\]/);
      if (process.env.WHARF_TEST_RACE) console.log(loser.stderr);
      const tip = bareGit(p.gitdir, ['rev-parse', 'refs/heads/master']).trim();
      expect(tip).to.equal(ra.code === 0 ? shaA : shaB);
      expect(bareGit(p.gitdir, ['rev-parse', `${tip}~1`]).trim()).to.equal(base);
    }
    expectFsckClean(p.gitdir);
  });
});
