// The merge base of src/git/compare.ts (git's paint_down_to_common, isomorphic-git when there
// are several candidates) against `git merge-base [--all]`, on generated histories with
// branches, merges, octopus merges, criss-cross merges and unrelated roots; once with commit
// dates in order, once with clock skew.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { mergeBase } from '../../src/git/compare.js';
import { git, gitStatus, rng, tempDir } from './git_oracle.js';

interface History {
  gitdir: string;
  commits: string[];
  tips: string[];
  /** Pairs made criss-cross on purpose (each side merged the other's previous tip). */
  crissCross: [string, string][];
  roots: string[];
}

/** A random history written with one `git fast-import`; `skew` makes some dates go backwards. */
function buildHistory(gitdir: string, seed: number, steps: number, skew: boolean): History {
  const rand = rng(seed);
  git(path.dirname(gitdir), ['init', '-q', '--bare', gitdir]);
  let stream = '';
  let mark = 0;
  let clock = 1_600_000_000;
  const branches: number[] = [];
  const crissMarks: [number, number][] = [];
  const rootMarks: number[] = [];
  const commit = (parents: number[]): number => {
    mark++;
    clock += 60;
    const when = skew && rand.int(5) === 0 ? clock - 3600 * (1 + rand.int(48)) : clock;
    const msg = `commit ${mark}\n`;
    if (!parents.length) {
      stream += 'reset refs/heads/tmp\n';
      rootMarks.push(mark);
    }
    stream += `commit refs/heads/tmp\nmark :${mark}\ncommitter C O Mitter <c@example.com> ${when} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`;
    if (parents.length) stream += `from :${parents[0]}\n`;
    for (const p of parents.slice(1)) stream += `merge :${p}\n`;
    stream += `M 644 inline file\ndata ${Buffer.byteLength(msg)}\n${msg}\n`;
    return mark;
  };
  branches.push(commit([]));
  for (let s = 0; s < steps; s++) {
    const r = rand.next();
    const b = rand.int(branches.length);
    if (r < 0.4) {
      branches[b] = commit([branches[b]]);
    } else if (r < 0.55) {
      branches.push(commit([1 + rand.int(mark)]));
    } else if (r < 0.78 && branches.length > 1) {
      const o = (b + 1 + rand.int(branches.length - 1)) % branches.length;
      branches[b] = commit([branches[b], branches[o]]);
    } else if (r < 0.82 && branches.length > 2) {
      const picks = [...new Set([b, rand.int(branches.length), rand.int(branches.length)])];
      if (picks.length > 2) branches[b] = commit(picks.map((i) => branches[i]));
      else branches[b] = commit([branches[b]]);
    } else if (r < 0.84) {
      branches.push(commit([])); // an unrelated root
    } else if (branches.length > 1) {
      // Criss-cross: each side merges the other's tip as it was before either merge.
      const o = (b + 1 + rand.int(branches.length - 1)) % branches.length;
      const [x, y] = [branches[b], branches[o]];
      branches[b] = commit([x, y]);
      branches[o] = commit([y, x]);
      branches[b] = commit([branches[b]]);
      branches[o] = commit([branches[o]]);
      crissMarks.push([branches[b], branches[o]]);
    }
  }
  const marksFile = path.join(path.dirname(gitdir), `${path.basename(gitdir)}.marks`);
  git(gitdir, ['fast-import', '--quiet', `--export-marks=${marksFile}`], { input: `${stream}done\n`, env: {} });
  const byMark = new Map<number, string>();
  for (const line of fs.readFileSync(marksFile, 'utf8').trim().split('\n')) {
    const [m, oid] = line.split(' ');
    byMark.set(Number(m.slice(1)), oid);
  }
  const commits = [...byMark.keys()].sort((a, b) => a - b).map((m) => byMark.get(m)!);
  return {
    gitdir,
    commits,
    tips: branches.map((m) => byMark.get(m)!),
    crissCross: crissMarks.map(([a, b]) => [byMark.get(a)!, byMark.get(b)!]),
    roots: rootMarks.map((m) => byMark.get(m)!),
  };
}

function gitBases(gitdir: string, a: string, b: string): { all: string[]; first: string | null } {
  const all = gitStatus(gitdir, ['merge-base', '--all', a, b]);
  expect(all.status, `git merge-base --all ${a} ${b}`).to.be.oneOf([0, 1]);
  const bases = all.stdout.split('\n').filter(Boolean);
  // Without --all git prints the first of them (asked only when it matters).
  const first = bases.length > 1 ? gitStatus(gitdir, ['merge-base', a, b]).stdout.trim() : (bases[0] ?? null);
  return { all: bases, first };
}

describe('git/compare mergeBase against git merge-base', function () {
  this.timeout(60000);
  let root: string;

  before(() => {
    root = tempDir('wharf-mergebase-');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  for (const [label, skew, seed] of [
    ['dates in order', false, 11],
    ['clock skew', true, 23],
  ] as const) {
    it(`agrees on ~160 pairs of a history with branches, merges and criss-crosses (${label})`, async () => {
      const t0 = Date.now();
      const h = buildHistory(path.join(root, `${seed}.git`), seed, 140, skew);
      const rand = rng(seed * 31);
      const pairs: [string, string][] = [...h.crissCross];
      for (let i = 0; i < h.tips.length; i++) for (let j = i + 1; j < h.tips.length; j++) if (rand.int(2)) pairs.push([h.tips[i], h.tips[j]]);
      // Unrelated histories: a later root's branch against the first commit.
      expect(h.roots.length).to.be.greaterThan(1);
      for (const r of h.roots.slice(1)) pairs.push([r, h.commits[0]], [h.tips[h.tips.length - 1], r]);
      while (pairs.length < 160) pairs.push([rand.pick(h.commits), rand.pick(h.commits)]);
      const stats = { none: 0, one: 0, several: 0, sameAsGitFirst: 0 };
      for (const [a, b] of pairs) {
        const want = gitBases(h.gitdir, a, b);
        const got = await mergeBase(h.gitdir, a, b);
        const what = `merge-base ${a} ${b}: git --all ${want.all.join(',') || '(none)'}, got ${got}`;
        if (want.all.length === 0) {
          stats.none++;
          expect(got, what).to.equal(null);
        } else if (want.all.length === 1) {
          stats.one++;
          expect(got, what).to.equal(want.all[0]);
        } else {
          stats.several++;
          expect(want.all, what).to.include(got);
          // git answers the newest (by commit date) of the bases; among equal dates, any.
          const date = (c: string) => Number(git(h.gitdir, ['show', '-s', '--format=%ct', c]).trim());
          if (got !== want.first) expect(date(got!), `not git's first: ${what}, git's first ${want.first}`).to.equal(date(want.first!));
          if (got === want.first) stats.sameAsGitFirst++;
        }
        // Symmetric, and a commit with itself is itself.
        expect(await mergeBase(h.gitdir, b, a), `swapped ${what}`).to.be.oneOf(want.all.length ? want.all : [null]);
      }
      expect(await mergeBase(h.gitdir, h.commits[5], h.commits[5])).to.equal(h.commits[5]);
      // The history really has every kind of answer.
      expect(stats.none, JSON.stringify(stats)).to.be.greaterThan(0);
      expect(stats.one, JSON.stringify(stats)).to.be.greaterThan(30);
      expect(stats.several, JSON.stringify(stats)).to.be.greaterThan(5);
      expect(h.crissCross.length).to.be.greaterThan(2);
      if (process.env.WHARF_TEST_VERBOSE) console.log(label, stats, `${h.commits.length} commits, ${pairs.length} pairs, ${Date.now() - t0} ms`);
    });
  }

  it('a hand-made criss-cross: both bases are valid, the answer is one of git --all', async () => {
    const gitdir = path.join(root, 'criss.git');
    git(root, ['init', '-q', '--bare', gitdir]);
    const mk = (msg: string, parents: string[], t: number) =>
      git(gitdir, ['commit-tree', '4b825dc642cb6eb9a060e54bf8d69288fbee4904', '-m', msg, ...parents.flatMap((p) => ['-p', p])], {
        env: { GIT_COMMITTER_DATE: `${1_600_000_000 + t} +0000`, GIT_AUTHOR_DATE: `${1_600_000_000 + t} +0000` },
      }).trim();
    const base = mk('base', [], 0);
    const a1 = mk('a1', [base], 10);
    const b1 = mk('b1', [base], 20);
    const a2 = mk('a2', [a1, b1], 30);
    const b2 = mk('b2', [b1, a1], 40);
    const a3 = mk('a3', [a2], 50);
    const b3 = mk('b3', [b2], 60);
    const want = gitBases(gitdir, a3, b3);
    expect([...want.all].sort()).to.deep.equal([a1, b1].sort());
    expect(want.all).to.include(await mergeBase(gitdir, a3, b3));
    // Linear cases: the ancestor itself; unrelated roots: none.
    expect(await mergeBase(gitdir, a1, a3)).to.equal(a1);
    expect(await mergeBase(gitdir, base, b3)).to.equal(base);
    const orphan = mk('orphan', [], 70);
    expect(gitBases(gitdir, orphan, a3).all).to.deep.equal([]);
    expect(await mergeBase(gitdir, orphan, a3)).to.equal(null);
  });
});
