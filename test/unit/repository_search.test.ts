// The bounded git runs of repository search (git/bounded_run.ts, git/grep.ts,
// git/commit_grep.ts) on a real bare repository: the byte cap cuts the output and says so, a
// grep that finds more than 100 groups stops at 100 whole ones, terms no line can hold find
// nothing, and message search takes the term as a fixed string.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { runBoundedGit } from '../../src/git/bounded_run.js';
import { filesNamed, grepContent } from '../../src/git/grep.js';
import { commitIdsByMessage } from '../../src/git/commit_grep.js';

const BOUNDS = { timeoutMs: 30_000, maxBytes: 8 << 20 };

describe('git/grep and git/commit_grep', () => {
  let dir: string;
  let gitdir: string;
  let commit: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-grep-'));
    gitdir = path.join(dir, 'r.git');
    const work = path.join(dir, 'work');
    const git = (args: string[], cwd = work) =>
      execFileSync('git', args, { cwd, env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } })
        .toString()
        .trim();
    fs.mkdirSync(work);
    git(['init', '-q', '-b', 'master']);
    // 150 matches ten lines apart: 150 separate groups of context.
    fs.writeFileSync(path.join(work, 'many.txt'), Array.from({ length: 1500 }, (_, i) => (i % 10 === 0 ? `Needle ${i}` : `hay ${i}`)).join('\n') + '\n');
    fs.mkdirSync(path.join(work, 'docs'));
    fs.writeFileSync(path.join(work, 'docs', 'a[1].md'), 'one\n');
    fs.writeFileSync(path.join(work, 'bin.dat'), Buffer.from([0, 1, 2, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0]));
    git(['add', '.']);
    git(['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'Add the (hay)+ stack']);
    git(['clone', '-q', '--bare', work, gitdir], dir);
    commit = git(['rev-parse', 'HEAD']);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('cuts the output at the byte cap and says so', async () => {
    const out = await runBoundedGit(gitdir, ['cat-file', '-p', `${commit}:many.txt`], { timeoutMs: 30_000, maxBytes: 10 });
    expect(out.cut).to.equal(true);
    expect(out.stdout.toString()).to.equal('Needle 0\nh');
    const whole = await runBoundedGit(gitdir, ['cat-file', '-p', `${commit}:docs/a[1].md`], BOUNDS);
    expect(whole).to.deep.equal({ stdout: Buffer.from('one\n'), cut: false });
  });

  it('answers nothing, not an error, when git fails', async () => {
    expect(await runBoundedGit(gitdir, ['cat-file', '-p', 'nope'], BOUNDS)).to.deep.equal({ stdout: Buffer.alloc(0), cut: false });
  });

  it('keeps the first 100 groups, whole, of a grep that finds more (binary files skipped)', async () => {
    const hits = await grepContent(gitdir, commit, 'needle', BOUNDS);
    expect(hits).to.have.length(100);
    expect(hits[0]).to.deep.equal({ path: 'many.txt', startline: 1, data: 'Needle 0\nhay 1\nhay 2\n' });
    expect(hits[99]).to.deep.equal({ path: 'many.txt', startline: 989, data: 'hay 988\nhay 989\nNeedle 990\nhay 991\nhay 992\n' });
  });

  it('finds nothing for an empty term, a line break or a NUL', async () => {
    for (const term of ['', 'hay 1\nhay 2', 'hay\0']) {
      expect(await grepContent(gitdir, commit, term, BOUNDS), JSON.stringify(term)).to.deep.equal([]);
      expect(await filesNamed(gitdir, commit, term, BOUNDS)).to.deep.equal([]);
    }
  });

  it('finds files by literal path or folder, globs and all', async () => {
    expect((await filesNamed(gitdir, commit, '//docs', BOUNDS)).map((h) => h.path)).to.deep.equal(['docs/a[1].md']);
    expect((await filesNamed(gitdir, commit, 'docs/a[1].md', BOUNDS)).map((h) => h.path)).to.deep.equal(['docs/a[1].md']);
    expect(await filesNamed(gitdir, commit, 'docs/a?1?.md', BOUNDS)).to.deep.equal([]);
    expect(await filesNamed(gitdir, commit, '*.txt', BOUNDS)).to.deep.equal([]);
  });

  it('searches commit messages for a fixed string, case-insensitively', async () => {
    expect(await commitIdsByMessage(gitdir, commit, 'THE (HAY)+', BOUNDS)).to.deep.equal([commit]);
    expect(await commitIdsByMessage(gitdir, commit, 'the hay', BOUNDS)).to.deep.equal([]);
    expect(await commitIdsByMessage(gitdir, commit, '', BOUNDS)).to.deep.equal([]);
  });
});
