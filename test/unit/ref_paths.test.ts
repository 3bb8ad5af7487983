// The last line of defence against ref names that leave their repository: src/git/refs.ts joins a ref name to a path only
// when the name is a ref of that repository, and RepoStore.branchExists takes names
// literally. Two real bare repositories side by side, as a fork and its upstream are.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteRef, InvalidRefError, listBranchHeads, readRef, updateRef } from '../../src/git/refs.js';
import { isValidBranchName, isValidFullRef } from '../../src/git/ref_names.js';
import { RepoStore } from '../../src/git/repos.js';
import { expectFsckClean, git, refState } from '../helpers/bare_git.js';

/** A first commit holding one file on master, made with plumbing; its id. */
function firstCommit(gitdir: string, file: string, content: string): string {
  const blob = git(gitdir, ['hash-object', '-w', '--stdin'], { input: content }).trim();
  const tree = git(gitdir, ['mktree'], { input: `100644 blob ${blob}\t${file}\n` }).trim();
  const commit = git(gitdir, ['commit-tree', tree, '-m', 'first']).trim();
  git(gitdir, ['update-ref', 'refs/heads/master', commit]);
  return commit;
}

describe('git/refs: ref names never leave refs/ of their repository', () => {
  let root: string;
  let store: RepoStore;
  let fork: string;
  let upstream: string;
  let forkHead: string;
  let upstreamHead: string;
  const escape = '../../../../victim/upstream.git/refs/heads/master';

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-refs-'));
    store = new RepoStore(root);
    upstream = await store.create('victim/upstream');
    fork = await store.create('mallory/fork');
    upstreamHead = firstCommit(upstream, 'README.md', 'upstream\n');
    forkHead = firstCommit(fork, 'only-in-fork.txt', 'fork\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads nothing through ../, ./ or an absolute name', async () => {
    expect(await readRef(fork, `refs/heads/${escape}`)).to.equal(null);
    expect(await readRef(fork, 'refs/heads/./master')).to.equal(null);
    expect(await readRef(fork, `${upstream}/refs/heads/master`)).to.equal(null);
    expect(await readRef(fork, 'HEAD')).to.equal(null); // not below refs/
    expect(await readRef(fork, 'refs/heads/master')).to.equal(forkHead);
  });

  it('refuses to move or delete a ref outside the repository, leaving both untouched', async () => {
    const before = [refState(upstream), refState(fork)];
    for (const ref of [`refs/heads/${escape}`, 'refs/heads/./master', 'refs/heads/a\0b', 'refs/../HEAD', 'refs/heads/x.lock', `refs/heads/${'n'.repeat(251)}`]) {
      let thrown: unknown = null;
      await updateRef(fork, ref, forkHead, upstreamHead).catch((err) => (thrown = err));
      expect(thrown, JSON.stringify(ref)).to.be.instanceOf(InvalidRefError);
      thrown = null;
      await deleteRef(fork, ref, upstreamHead).catch((err) => (thrown = err));
      expect(thrown, JSON.stringify(ref)).to.be.instanceOf(InvalidRefError);
    }
    expect([refState(upstream), refState(fork)]).to.deep.equal(before);
    expect(git(upstream, ['rev-parse', 'refs/heads/master']).trim()).to.equal(upstreamHead);
    expect(fs.readdirSync(path.join(fork, 'refs', 'heads'))).to.deep.equal(['master']);
    expectFsckClean(upstream);
    expectFsckClean(fork);
  });

  it('still moves an ordinary branch', async () => {
    await updateRef(fork, 'refs/heads/topic/one', forkHead, null);
    expect(git(fork, ['rev-parse', 'refs/heads/topic/one']).trim()).to.equal(forkHead);
    expect([...(await listBranchHeads(fork)).keys()].sort()).to.deep.equal(['master', 'topic/one']);
    await deleteRef(fork, 'refs/heads/topic/one', forkHead);
  });

  it('RepoStore.branchExists takes the name literally', async () => {
    expect(await store.branchExists('mallory/fork', 'master')).to.equal(true);
    expect(await store.branchExists('mallory/fork', './master')).to.equal(false);
    expect(await store.branchExists('mallory/fork', 'x/../master')).to.equal(false);
    // The upstream's master exists, and must not be found from the fork.
    expect(await store.branchExists('mallory/fork', escape)).to.equal(false);
    expect(await store.branchExists('mallory/fork', '../../../../victim/missing.git/refs/heads/master')).to.equal(false);
  });
});

describe('git/ref_names: what the file system can hold', () => {
  it('refuses a component over 250 bytes (255 with .lock), a name over 1024 bytes, and lone surrogates', () => {
    expect(isValidBranchName('a'.repeat(250))).to.equal(true);
    expect(isValidBranchName('a'.repeat(251))).to.equal(false);
    expect(isValidBranchName('é'.repeat(125))).to.equal(true); // 250 bytes
    expect(isValidBranchName('é'.repeat(126))).to.equal(false);
    expect(isValidBranchName(Array(5).fill('b'.repeat(200)).join('/'))).to.equal(true); // 1004 bytes
    expect(isValidBranchName(Array(6).fill('b'.repeat(200)).join('/'))).to.equal(false);
    expect(isValidBranchName('bad\ud800')).to.equal(false);
    expect(isValidBranchName('\udc00bad')).to.equal(false);
    expect(isValidBranchName('ok😀')).to.equal(true);
  });

  it('knows full refs: below refs/, each component a name git can have', () => {
    for (const ok of ['refs/heads/master', 'refs/tags/v1.0', 'refs/merge-requests/1/head']) expect(isValidFullRef(ok), ok).to.equal(true);
    for (const bad of ['HEAD', 'refs/heads/../x', 'refs/heads/./x', 'refs//x', 'refs/heads/x/', 'refs/heads/a\0b', '/refs/heads/x', 'refs/heads/x.lock']) {
      expect(isValidFullRef(bad), JSON.stringify(bad)).to.equal(false);
    }
  });
});
