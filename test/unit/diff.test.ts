// The diff engine against real git: every commit of a history built to cover adds, deletes,
// edits, renames, mode and type changes, binaries, missing final newlines, empty files,
// CRLF, deep and non-ASCII paths, slider cases; plus GitLab's limits.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { changesBetween, collect, commitChanges, patchFor, SAFE_LIMITS, SIZE_LIMIT } from '../../src/git/diff.js';
import { diffLines, formatHunks } from '../../src/git/diff_lines.js';
import { git, gitDiff, WorkTree } from '../helpers/compare_git.js';

function lines(n: number, f: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => f(i) + '\n').join('');
}

const C_FILE = `#include <stdio.h>\n\nint add(int a, int b)\n{\n${lines(12, (i) => `  int x${i} = ${i};`)}  return a + b;\n}\n\nint sub(int a, int b)\n{\n${lines(12, (i) => `  int y${i} = ${i};`)}  return a - b;\n}\n`;

// A deterministic pseudo-random generator so the "random edits" case is the same every run.
function rng(seed: number) {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

describe('git diff engine (unit)', () => {
  let root: string;
  let bare: string;
  let work: WorkTree;
  const commits: string[] = [];

  before(function () {
    this.timeout(60000);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-diff-'));
    bare = path.join(root, 'repo.git');
    work = new WorkTree(bare);
    const rand = rng(42);
    const big = lines(400, (i) => `line ${i} ${i % 7 === 0 ? '}' : 'value'}`);
    work
      .write('README.md', '# Title\n\nSome text\n')
      .write('a/b/c/d/e/deep.txt', 'deep\n')
      .write('empty.txt', '')
      .write('nonl.txt', 'no newline at end')
      .write('crlf.txt', 'one\r\ntwo\r\nthree\r\n')
      .write('bin.dat', Buffer.from([0, 1, 2, 3, 255, 0, 10]))
      .write('script.sh', '#!/bin/sh\necho hi\n', 0o755)
      .write('main.c', C_FILE)
      .write('big.txt', big)
      .write(
        'move-me.txt',
        lines(30, (i) => `movable ${i}`),
      )
      .write(
        'edit-and-move.txt',
        lines(30, (i) => `renamed content ${i}`),
      )
      .write('doomed.txt', 'bye\n')
      .write('typechange', 'plain file\n')
      .symlink('link', 'README.md');
    commits.push(work.commit('initial'));

    work
      .write('README.md', '# Title\n\nSome other text\nand more\n')
      .write('nonl.txt', 'no newline at end\n')
      .write('crlf.txt', 'one\r\nTWO\r\nthree\r\nfour')
      .write('bin.dat', Buffer.from([0, 1, 2, 4, 255, 0, 10]))
      .write('empty.txt', 'now has content\n')
      .write('main.c', C_FILE.replace('  int x5 = 5;', '  int x5 = 50;').replace('  int y10 = 10;', '  int y10 = 100;\n  int extra = 1;'))
      .write(
        'big.txt',
        big
          .split('\n')
          .map((l, i) => (i % 50 === 10 ? `${l} changed` : l))
          .join('\n'),
      )
      .move('move-me.txt', 'moved/here.txt')
      .move('edit-and-move.txt', 'z-renamed.txt')
      .write(
        'z-renamed.txt',
        lines(30, (i) => (i === 3 ? 'a changed line' : `renamed content ${i}`)),
      )
      .remove('doomed.txt')
      .write('ünïcode name.txt', 'unicode\n')
      .write('new-empty', '');
    fs.chmodSync(path.join(work.dir, 'README.md'), 0o755);
    commits.push(work.commit('edits, renames, modes'));

    work
      .symlink('typechange', 'README.md')
      .write('slider.txt', 'a\n{\n  x\n}\n')
      .write(
        'random.txt',
        lines(300, () => `r${Math.floor(rand() * 8)}`),
      )
      .write('script.sh', '#!/bin/sh\necho hi\n', 0o644);
    commits.push(work.commit('type change, slider seed'));

    work
      .write('slider.txt', 'a\n{\n  x\n}\n{\n  x\n}\n')
      .write(
        'random.txt',
        lines(300, () => `r${Math.floor(rand() * 8)}`),
      )
      .remove('link')
      .remove('a');
    commits.push(work.commit('slider, random rewrite, deletes'));

    work.write('bin.dat', 'text now\n').write('nonl.txt', 'no newline at end').write('crlf.txt', '');
    commits.push(work.commit('binary to text, newline removed, emptied'));
    work.push();
  });

  after(() => {
    work.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('matches git for every commit against its parent', async () => {
    for (let k = 0; k < commits.length; k++) {
      const from = k === 0 ? '4b825dc642cb6eb9a060e54bf8d69288fbee4904' : commits[k - 1];
      const expected = gitDiff(bare, from, commits[k]);
      const changes = await commitChanges(bare, commits[k]);
      const got = await Promise.all(changes.map((c) => patchFor(bare, c)));
      expect(
        got.map((d) => [d.old_path, d.new_path, d.a_mode, d.b_mode]),
        `paths of commit ${k}`,
      ).to.deep.equal(expected.map((e) => [e.old_path, e.new_path, e.a_mode, e.b_mode]));
      got.forEach((d, i) => {
        // Known divergence: a heavy rewrite of repetitive lines has many equally short edit
        // scripts; Myers and xdiff's split heuristics may pick different ones (same counts).
        if (d.new_path === 'random.txt') return;
        expect(d.diff, `diff of ${d.new_path} in commit ${k}`).to.equal(expected[i].diff);
        expect([d.new_file, d.deleted_file, d.renamed_file]).to.deep.equal([expected[i].status === 'A', expected[i].status === 'D', expected[i].status === 'R']);
      });
    }
  });

  it('matches git between distant commits (both directions)', async () => {
    for (const [a, b] of [
      [commits[0], commits[4]],
      [commits[4], commits[0]],
      [commits[1], commits[3]],
    ]) {
      const expected = gitDiff(bare, a, b);
      const got = await Promise.all((await changesBetween(bare, a, b)).map((c) => patchFor(bare, c)));
      const text = (list: { new_path: string; diff: string }[]) => list.map((d) => [d.new_path, d.new_path === 'random.txt' ? '' : d.diff]);
      expect(text(got)).to.deep.equal(text(expected));
    }
  });

  it('counts additions and deletions like git --numstat', async () => {
    for (let k = 1; k < commits.length; k++) await sameNumstat(commits[k - 1], commits[k]);
  });

  async function sameNumstat(from: string, to: string) {
    const numstat = git(bare, ['diff', '--numstat', '-M', '--no-indent-heuristic', from, to])
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
      .filter(([a]) => a !== '-')
      .map(([a, d]) => [Number(a), Number(d)]);
    const got = await Promise.all((await changesBetween(bare, from, to)).map((c) => patchFor(bare, c)));
    // Totals: git's numstat shows a type change as one line, its patch (and Wharf) as two.
    const sum = (rows: number[][]) => rows.reduce((t, [a, d]) => [t[0] + a, t[1] + d], [0, 0]);
    expect(sum(got.map((d) => [d.additions, d.deletions]))).to.deep.equal(sum(numstat));
  }

  it('prints hunk headers as git does for edge positions', () => {
    const add = formatHunks(diffLines('', 'x\n'));
    expect(add.text).to.equal('@@ -0,0 +1 @@\n+x\n');
    const del = formatHunks(diffLines('x\ny\n', ''));
    expect(del.text).to.equal('@@ -1,2 +0,0 @@\n-x\n-y\n');
    const nl = formatHunks(diffLines('a', 'a\n'));
    expect(nl.text).to.equal('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n');
  });

  it('empties a patch of 100 KB or more (too_large), keeping its paths', async () => {
    const w = new WorkTree(bare);
    w.write(
      'huge.txt',
      lines(Math.ceil(SIZE_LIMIT / 20) + 10, (i) => `a fairly long line ${i}`),
    );
    const id = w.commit('huge');
    w.push('master');
    w.close();
    const [d] = await Promise.all((await commitChanges(bare, id)).map((c) => patchFor(bare, c)));
    expect(d.new_path).to.equal('huge.txt');
    expect(d.too_large).to.equal(true);
    expect(d.diff).to.equal('');
    expect(d.additions).to.be.greaterThan(5000);
  });

  it('stops at GitLab limits: max files, and the file that reaches max lines is dropped', async () => {
    const w = new WorkTree(bare);
    for (let i = 0; i < 120; i++) w.write(`many/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`);
    const many = w.commit('many files');
    for (let i = 0; i < 3; i++)
      w.write(
        `long/l${i}.txt`,
        lines(2000, (j) => `${i}-${j}`),
      );
    const long = w.commit('long files');
    w.push('master');
    w.close();
    const files = await collect(bare, await commitChanges(bare, many), SAFE_LIMITS);
    expect(files.diffs).to.have.length(100);
    expect(files.overflow).to.equal(true);
    const byLines = await collect(bare, await commitChanges(bare, long), SAFE_LIMITS);
    // Each patch is 2003 lines: the third would bring the total past 5000.
    expect(byLines.diffs.map((d) => d.new_path)).to.deep.equal(['long/l0.txt', 'long/l1.txt']);
    expect(byLines.overflow).to.equal(true);
  });
});
