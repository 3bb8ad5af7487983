// RepoReader over a bare repository whose history the real git command made.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { RepoReader } from '../../src/git/reader.js';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: 'A U Thor', GIT_AUTHOR_EMAIL: 'author@example.com', GIT_COMMITTER_NAME: 'C O Mitter', GIT_COMMITTER_EMAIL: 'c@example.com' },
  })
    .toString()
    .trim();
}

describe('git/RepoReader', () => {
  let dir: string;
  let bare: string;
  let reader: RepoReader;
  let first: string;
  let second: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-git-'));
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    git(work, 'init', '-q', '-b', 'master');
    fs.mkdirSync(path.join(work, 'lib'));
    fs.writeFileSync(path.join(work, 'README.md'), '# hello\n');
    fs.writeFileSync(path.join(work, 'lib', 'a.rb'), 'puts 1\n');
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'first');
    first = git(work, 'rev-parse', 'HEAD');
    fs.writeFileSync(path.join(work, 'run.sh'), '#!/bin/sh\n');
    fs.chmodSync(path.join(work, 'run.sh'), 0o755);
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'second');
    second = git(work, 'rev-parse', 'HEAD');
    git(work, 'tag', '-a', 'v1.0', '-m', 'release', first);
    git(work, 'branch', 'feature', first);
    bare = path.join(dir, 'repo.git');
    git(dir, 'clone', '-q', '--bare', work, bare);
    reader = new RepoReader(bare);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('resolves branches, annotated tags and (short) commit ids to commits', async () => {
    expect(await reader.resolveCommit('master')).to.equal(second);
    expect(await reader.resolveCommit('feature')).to.equal(first);
    expect(await reader.resolveCommit('v1.0')).to.equal(first);
    expect(await reader.resolveCommit(second)).to.equal(second);
    expect(await reader.resolveCommit(second.slice(0, 8))).to.equal(second);
    for (const bad of ['nope', '0000000000000000000000000000000000000000', '../etc', '-x', '']) {
      expect(await reader.resolveCommit(bad), bad).to.equal(null);
    }
    expect(await reader.headBranch()).to.equal('master');
    expect((await reader.branches()).sort()).to.deep.equal(['feature', 'master']);
    expect(await reader.tags()).to.deep.equal(['v1.0']);
  });

  it('lists a tree as git ls-tree does, trees first, with zero-padded modes', async () => {
    const entries = (await reader.tree(second, '', false))!;
    expect(entries.map((e) => [e.type, e.path, e.mode])).to.deep.equal([
      ['tree', 'lib', '040000'],
      ['blob', 'README.md', '100644'],
      ['blob', 'run.sh', '100755'],
    ]);
    const lsTree = git(bare, 'ls-tree', second)
      .split('\n')
      .map((l) => l.split(/\s+/)[2]);
    expect(entries.map((e) => e.id).sort()).to.deep.equal(lsTree.sort());
    const recursive = (await reader.tree(second, '', true))!;
    // GitLab's recursive order: every directory (as `git ls-tree -r -t`), then every file.
    expect(recursive.map((e) => e.path)).to.deep.equal(['lib', 'README.md', 'lib/a.rb', 'run.sh']);
    expect((await reader.tree(second, 'lib/', false))!.map((e) => e.path)).to.deep.equal(['lib/a.rb']);
    expect(await reader.tree(second, 'missing', false)).to.equal(null);
    expect(await reader.tree(second, 'README.md', false)).to.equal(null);
  });

  it('reads blobs by id and by path', async () => {
    const at = (await reader.blobAt(second, 'lib/a.rb'))!;
    expect(Buffer.from(at.content).toString()).to.equal('puts 1\n');
    expect(at.oid).to.equal(git(bare, 'rev-parse', `${second}:lib/a.rb`));
    expect(Buffer.from((await reader.blob(at.oid))!).toString()).to.equal('puts 1\n');
    expect(await reader.blob('0'.repeat(40))).to.equal(null);
    expect(await reader.blobAt(second, 'nope.txt')).to.equal(null);
    const c = await reader.commit(second);
    expect(c.parents).to.deep.equal([first]);
    expect(c.author.email).to.equal('author@example.com');
  });
});
