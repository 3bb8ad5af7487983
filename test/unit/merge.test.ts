// src/git/merge.ts against the real `git merge` of a work-tree clone: the merged tree of a
// clean merge is the tree `git merge` commits, conflicts are found where `git merge` stops,
// the merge commit has the target then the source as parents, fast-forward is decided as
// `git merge --ff-only` would, and commit messages of a range are those `git log` shows.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { commitExists, commitMessages, fastForwardPossible, isAncestor, testMerge, writeMergeCommit } from '../../src/git/merge.js';
import { closingReferences } from '../../src/services/merge_requests/closing_issues.js';
import { git, gitStatus, tempDir } from './git_oracle.js';

interface Repo {
  bare: string;
  work: string;
}

function makeRepo(): Repo {
  const root = tempDir('wharf-merge-');
  const bare = path.join(root, 'repo.git');
  const work = path.join(root, 'work');
  git(root, ['init', '-q', '--bare', '-b', 'master', bare]);
  git(root, ['init', '-q', '-b', 'master', work]);
  git(work, ['remote', 'add', 'origin', bare]);
  return { bare, work };
}

function write(work: string, files: Record<string, string | null>): void {
  for (const [file, content] of Object.entries(files)) {
    const p = path.join(work, file);
    if (content === null) fs.rmSync(p);
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
  }
}

function commit(work: string, files: Record<string, string | null>, message: string): string {
  write(work, files);
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '-m', message]);
  return git(work, ['rev-parse', 'HEAD']).trim();
}

function pushAll(r: Repo): void {
  git(r.work, ['push', '-q', 'origin', '--all']);
}

const lines = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `line ${i}${tag}`).join('\n') + '\n';

describe('git merge without a work tree (src/git/merge.ts)', function () {
  this.timeout(30000);

  it('merges like `git merge`: same tree for edits on both sides of one file, new files and a rename', async () => {
    const r = makeRepo();
    commit(r.work, { 'a.txt': lines(30), 'b.txt': 'bee\n', 'old/name.txt': lines(20, ' moved') }, 'base');
    git(r.work, ['checkout', '-q', '-b', 'feature']);
    const src = commit(r.work, { 'a.txt': lines(30).replace('line 2\n', 'line 2 feature\n'), 'c.txt': 'new\n' }, 'feature work');
    git(r.work, ['checkout', '-q', 'master']);
    git(r.work, ['mv', 'old/name.txt', 'new-name.txt']);
    const tgt = commit(r.work, { 'a.txt': lines(30).replace('line 27\n', 'line 27 master\n') }, 'master work');
    pushAll(r);

    const objects = git(r.bare, ['count-objects', '-v']);
    const result = await testMerge(r.bare, tgt, src);
    expect(result.clean).to.equal(true);
    expect(result.conflicts).to.deep.equal([]);
    expect(git(r.bare, ['count-objects', '-v'])).to.equal(objects); // a test merge writes nothing

    git(r.work, ['merge', '-q', '--no-ff', '-m', 'native', 'feature']);
    const nativeTree = git(r.work, ['rev-parse', 'HEAD^{tree}']).trim();
    expect(result.tree).to.equal(nativeTree);

    const when = 1_700_000_000;
    const sig = { name: 'Mia Merger', email: 'mia@example.com', timestamp: when };
    const oid = await writeMergeCommit(r.bare, { ours: tgt, theirs: src, message: "Merge branch 'feature' into 'master'\n\nTitle", author: sig, committer: sig });
    expect(oid).to.match(/^[0-9a-f]{40}$/);
    expect(git(r.bare, ['rev-parse', `${oid}^1`]).trim()).to.equal(tgt);
    expect(git(r.bare, ['rev-parse', `${oid}^2`]).trim()).to.equal(src);
    expect(git(r.bare, ['rev-parse', `${oid}^{tree}`]).trim()).to.equal(nativeTree);
    expect(git(r.bare, ['log', '-1', '--format=%an <%ae> %at|%cn <%ce>', oid!]).trim()).to.equal(`Mia Merger <mia@example.com> ${when}|Mia Merger <mia@example.com>`);
    // The message is stored exactly as given (no newline appended).
    expect(git(r.bare, ['cat-file', 'commit', oid!]).endsWith("\n\nMerge branch 'feature' into 'master'\n\nTitle")).to.equal(true);
    expect(gitStatus(r.bare, ['fsck', '--strict', '--no-dangling']).status).to.equal(0);
  });

  it('reports a conflict where `git merge` stops, with the conflicted paths, and writes no commit', async () => {
    const r = makeRepo();
    commit(r.work, { 'a.txt': 'one\n', 'same.txt': 'x\n' }, 'base');
    git(r.work, ['checkout', '-q', '-b', 'feature']);
    const src = commit(r.work, { 'a.txt': 'feature\n', 'z.txt': 'z\n' }, 'feature');
    git(r.work, ['checkout', '-q', 'master']);
    const tgt = commit(r.work, { 'a.txt': 'master\n' }, 'master');
    pushAll(r);

    const objects = git(r.bare, ['count-objects', '-v']);
    const result = await testMerge(r.bare, tgt, src);
    expect(result).to.deep.equal({ clean: false, tree: null, conflicts: ['a.txt'] });
    expect(git(r.bare, ['count-objects', '-v'])).to.equal(objects);
    expect(gitStatus(r.work, ['merge', '-q', '-m', 'native', 'feature']).status).to.not.equal(0); // git agrees
    git(r.work, ['merge', '--abort']);

    const before = git(r.bare, ['count-objects', '-v']);
    const sig = { name: 'M', email: 'm@example.com', timestamp: 1 };
    expect(await writeMergeCommit(r.bare, { ours: tgt, theirs: src, message: 'm', author: sig, committer: sig })).to.equal(null);
    expect(git(r.bare, ['count-objects', '-v'])).to.equal(before);
  });

  it('a modify/delete conflict is a conflict too', async () => {
    const r = makeRepo();
    commit(r.work, { 'a.txt': 'one\n' }, 'base');
    git(r.work, ['checkout', '-q', '-b', 'feature']);
    const src = commit(r.work, { 'a.txt': null, 'b.txt': 'b\n' }, 'delete');
    git(r.work, ['checkout', '-q', 'master']);
    const tgt = commit(r.work, { 'a.txt': 'two\n' }, 'modify');
    pushAll(r);
    const result = await testMerge(r.bare, tgt, src);
    expect(result.clean).to.equal(false);
    expect(result.conflicts).to.deep.equal(['a.txt']);
  });

  it('decides fast-forward as `git merge --ff-only` does', async () => {
    const r = makeRepo();
    const base = commit(r.work, { 'a.txt': 'one\n' }, 'base');
    git(r.work, ['checkout', '-q', '-b', 'feature']);
    const ahead = commit(r.work, { 'b.txt': 'b\n' }, 'ahead');
    git(r.work, ['checkout', '-q', 'master']);
    pushAll(r);
    expect(await fastForwardPossible(r.bare, base, ahead)).to.equal(true);
    expect(await fastForwardPossible(r.bare, ahead, base)).to.equal(false);
    expect(await isAncestor(r.bare, base, base)).to.equal(true);

    const diverged = commit(r.work, { 'c.txt': 'c\n' }, 'diverged');
    pushAll(r);
    expect(await fastForwardPossible(r.bare, diverged, ahead)).to.equal(false);
    expect(gitStatus(r.work, ['merge', '--ff-only', 'feature']).status).to.not.equal(0);
  });

  it('a fast-forwardable pair merges cleanly to the source tree', async () => {
    const r = makeRepo();
    const base = commit(r.work, { 'a.txt': 'one\n' }, 'base');
    const ahead = commit(r.work, { 'b.txt': 'b\n' }, 'ahead');
    pushAll(r);
    const result = await testMerge(r.bare, base, ahead);
    expect(result.clean).to.equal(true);
    expect(result.tree).to.equal(git(r.bare, ['rev-parse', `${ahead}^{tree}`]).trim());
  });

  it('lists the messages of a range as `git log` does, newest first', async () => {
    const r = makeRepo();
    const base = commit(r.work, { 'a.txt': 'one\n' }, 'base');
    commit(r.work, { 'b.txt': 'b\n' }, 'Fix things\n\nCloses #3');
    const tip = commit(r.work, { 'c.txt': 'c\n' }, 'second');
    pushAll(r);
    expect(await commitMessages(r.bare, base, tip)).to.deep.equal(['second\n', 'Fix things\n\nCloses #3\n']);
    expect(await commitMessages(r.bare, base, tip, 1)).to.deep.equal(['second\n']);
    expect(await commitMessages(r.bare, null, tip)).to.have.length(3);
  });

  it('fails loudly for a commit the repository does not have', async () => {
    const r = makeRepo();
    const base = commit(r.work, { 'a.txt': 'one\n' }, 'base');
    pushAll(r);
    expect(await commitExists(r.bare, base)).to.equal(true);
    expect(await commitExists(r.bare, 'f'.repeat(40))).to.equal(false);
    let failed = false;
    try {
      await testMerge(r.bare, base, 'f'.repeat(40));
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
  });
});

describe("GitLab's issue closing pattern (src/services/merge_requests/closing_issues.ts)", () => {
  const base = 'https://wharf.example.com';
  const refs = (text: string) => closingReferences(text, base).map((r) => `${r.namespace ?? ''}/${r.project ?? ''}#${r.iid}`);

  it('finds the references of closing statements, with every verb form GitLab accepts', () => {
    expect(refs('Closes #1')).to.deep.equal(['/#1']);
    expect(refs('closed #2, fixes #3 and resolves #4')).to.deep.equal(['/#2', '/#3', '/#4']);
    expect(refs('Fix #5. Fixed #6; Fixing #7 Resolving #8 Resolved #9 Implement #10 implements #11 Implemented #12 implementing #13 closing #14')).to.deep.equal([
      '/#5',
      '/#6',
      '/#7',
      '/#8',
      '/#9',
      '/#10',
      '/#11',
      '/#12',
      '/#13',
      '/#14',
    ]);
    expect(refs('Closes #1, #2 and #3, and #4')).to.deep.equal(['/#1', '/#2', '/#3', '/#4']);
    expect(refs('Closes: #20')).to.deep.equal(['/#20']);
    expect(refs('Fixes issue #21 and issues #22')).to.deep.equal(['/#21', '/#22']);
  });

  it('leaves out mentions that are not closing statements, and verbs in capitals (the pattern is not case-insensitive)', () => {
    expect(refs('See #1, related to #2')).to.deep.equal([]);
    expect(refs('CLOSES #3')).to.deep.equal([]);
    expect(refs('Closes #4, see also #5')).to.deep.equal(['/#4']);
    expect(refs('Fixes the bug in #6')).to.deep.equal([]);
    expect(refs('Closesx #7')).to.deep.equal([]);
  });

  it('reads cross-project references and issue links of this instance only', () => {
    expect(refs('Closes other#3 and group/sub/proj#4')).to.deep.equal(['/other#3', 'group/sub/proj#4']);
    expect(refs(`Closes ${base}/group/proj/issues/9 and https://elsewhere.example.com/group/proj/issues/10`)).to.deep.equal(['group/proj#9']);
    expect(refs('Closes #1 and #1')).to.deep.equal(['/#1']);
  });
});
