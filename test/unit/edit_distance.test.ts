// The Myers line counts of src/git/diff_lines.ts (editDistance, countChanges) against
// `git diff --numstat --minimal --no-indent-heuristic`, over generated pairs: random edits,
// CRLF, missing final newlines, empty sides, long shared prefixes and suffixes, latin1 bytes,
// and the 20,000-edit cutoff past which a region counts as a plain replace.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { countChanges, diffLines, editDistance } from '../../src/git/diff_lines.js';
import { lineCounts } from '../../src/git/commit_stats.js';
import { gitStatus, rng, tempDir } from './git_oracle.js';

const rand = rng(7);

/** Shortest edit script length by dynamic programming (n + m - 2 LCS): the reference. */
function dpDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  const m = b.length;
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return n + m - 2 * prev[m];
}

/** A text of `n` lines drawn from a small vocabulary (many repeats, as code has). */
function text(n: number, vocab: number, eol = '\n'): string[] {
  return Array.from({ length: n }, () => `line ${rand.int(vocab)}${eol}`);
}

/** Random inserts, deletes and replacements, `k` of them. */
function edit(lines: string[], k: number, vocab: number, eol = '\n'): string[] {
  const out = lines.slice();
  for (let i = 0; i < k; i++) {
    const at = rand.int(out.length + 1);
    const op = rand.int(3);
    if (op === 0 || out.length === 0) out.splice(at, 0, `line ${rand.int(vocab)}${eol}`);
    else if (op === 1) out.splice(Math.min(at, out.length - 1), 1 + rand.int(3));
    else out[Math.min(at, out.length - 1)] = `new ${rand.int(vocab)}${eol}`;
  }
  return out;
}

const dropFinalNewline = (s: string) => s.replace(/\r?\n$/, '');

interface Pair {
  name: string;
  a: string;
  b: string;
}

/** git's numstat of every pair, in one `git diff --no-index` of two folders. */
function gitNumstat(pairs: Pair[]): Map<string, { additions: number; deletions: number }> {
  const root = tempDir('wharf-numstat-');
  try {
    for (const side of ['a', 'b'] as const) {
      fs.mkdirSync(path.join(root, side));
      for (const p of pairs) fs.writeFileSync(path.join(root, side, p.name), Buffer.from(p[side], 'latin1'));
    }
    const r = gitStatus(root, ['-c', 'core.quotePath=false', 'diff', '--no-index', '--no-renames', '--numstat', '--minimal', '--no-indent-heuristic', 'a', 'b']);
    expect(r.status, 'git diff --no-index exit status').to.be.oneOf([0, 1]);
    const out = new Map<string, { additions: number; deletions: number }>();
    for (const p of pairs) out.set(p.name, { additions: 0, deletions: 0 }); // identical files are not listed
    for (const line of r.stdout.split('\n').filter(Boolean)) {
      const [add, del, file] = line.split('\t');
      expect(add, `binary? ${line}`).to.match(/^\d+$/);
      out.set(path.basename(file), { additions: Number(add), deletions: Number(del) });
    }
    return out;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The line count of a text as git counts it (a final line without newline counts). */
const lineTotal = (s: string) => (s.match(/\n/g)?.length ?? 0) + (s.length && !s.endsWith('\n') ? 1 : 0);

describe('git/diff_lines: Myers edit distance and line counts', function () {
  this.timeout(60000);

  it('editDistance equals n + m - 2·LCS on random id sequences, and honours maxD exactly', () => {
    for (let t = 0; t < 600; t++) {
      const alphabet = 1 + rand.int(t % 3 === 0 ? 3 : 12);
      const a = Int32Array.from({ length: rand.int(40) }, () => rand.int(alphabet));
      const b = Int32Array.from({ length: rand.int(40) }, () => rand.int(alphabet));
      const d = dpDistance(a, b);
      expect(editDistance(a, b, 1e9), `${a} | ${b}`).to.equal(d);
      expect(editDistance(a, b, d), `maxD = D for ${a} | ${b}`).to.equal(d);
      if (d > 0) expect(editDistance(a, b, d - 1), `maxD = D-1 for ${a} | ${b}`).to.equal(-1);
    }
    expect(editDistance([], [], 0)).to.equal(0);
    expect(editDistance([1, 2, 3], [], 10)).to.equal(3);
    expect(editDistance([], [1, 2], 10)).to.equal(2);
    expect(editDistance([1, 2, 3], [1, 2, 3], 0)).to.equal(0);
  });

  it('countChanges equals git diff --numstat --minimal on ~400 generated pairs', () => {
    const pairs: Pair[] = [];
    const add = (a: string | string[], b: string | string[]) => {
      pairs.push({ name: `p${String(pairs.length).padStart(4, '0')}.txt`, a: Array.isArray(a) ? a.join('') : a, b: Array.isArray(b) ? b.join('') : b });
    };
    for (let i = 0; i < 150; i++) {
      const vocab = i % 4 === 0 ? 4 : 40;
      const a = text(rand.int(120), vocab);
      add(a, edit(a, 1 + rand.int(25), vocab));
    }
    for (let i = 0; i < 40; i++) {
      // CRLF, and line-ending-only changes.
      const a = text(1 + rand.int(60), 10, '\r\n');
      const b = edit(a, rand.int(8), 10, '\r\n').map((l) => (rand.int(6) === 0 ? l.replace('\r\n', '\n') : l));
      add(a, b);
    }
    for (let i = 0; i < 40; i++) {
      // No newline at the end of one side, the other or both.
      const a = text(1 + rand.int(40), 8);
      const b = edit(a, rand.int(6), 8);
      const mode = i % 3;
      add(mode === 1 ? a.join('') : dropFinalNewline(a.join('')), mode === 0 ? b.join('') : dropFinalNewline(b.join('')));
    }
    // Empty sides, one-line files, a lone missing newline.
    add('', '');
    add('', 'one\n');
    add('one\ntwo\n', '');
    add('', 'no newline');
    add('no newline', '');
    add('x', 'x\n');
    add('x\n', 'x');
    add('\n\n\n', '\n');
    add('a\nb\n', 'a\nb\n');
    for (let i = 0; i < 30; i++) {
      // Long identical prefixes and suffixes around a small change.
      const head = text(2000 + rand.int(2000), 50);
      const tail = text(2000 + rand.int(2000), 50);
      const mid = text(rand.int(30), 50);
      add([...head, ...mid, ...tail], [...head, ...edit(mid, 1 + rand.int(10), 50), ...tail]);
    }
    for (let i = 0; i < 30; i++) {
      // Latin1 bytes (not valid UTF-8), tabs and trailing spaces.
      const latin = () => String.fromCharCode(...Array.from({ length: 1 + rand.int(12) }, () => rand.pick([9, 32, 97, 98, 0xe9, 0xff, 0x80, 0xc3])));
      const a = Array.from({ length: rand.int(50) }, () => `${latin()}\n`);
      const b = edit(a, 1 + rand.int(10), 5).map((l) => (rand.int(5) === 0 ? `${latin()}\n` : l));
      add(a, b);
    }
    for (let i = 0; i < 10; i++) {
      // Bigger rewrites (thousands of edits, still under the cutoff).
      const a = text(3000, 300);
      add(a, edit(a, 800 + rand.int(800), 300));
    }
    const want = gitNumstat(pairs);
    let differing = 0;
    for (const p of pairs) {
      const got = countChanges(p.a, p.b);
      expect(got, `${p.name}: ${JSON.stringify(p.a.slice(0, 80))} -> ${JSON.stringify(p.b.slice(0, 80))}`).to.deep.equal(want.get(p.name));
      // Any shortest script: additions - deletions is the change in line count.
      expect(got.additions - got.deletions).to.equal(lineTotal(p.b) - lineTotal(p.a));
      if (got.additions || got.deletions) differing++;
    }
    expect(differing).to.be.greaterThan(pairs.length - 10);
  });

  it('diffLines (the printed diff) and commit stats count exactly what countChanges counts', () => {
    for (let i = 0; i < 150; i++) {
      const vocab = 2 + rand.int(30);
      const a = text(rand.int(200), vocab, i % 5 === 0 ? '\r\n' : '\n').join('');
      const b = i % 7 === 0 ? '' : edit(a.split(/(?<=\n)/).filter(Boolean), 1 + rand.int(30), vocab).join('');
      const counts = countChanges(a, b);
      const d = diffLines(a, b);
      expect({ additions: d.additions, deletions: d.deletions }, `pair ${i}`).to.deep.equal(counts);
      expect(lineCounts(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1'))).to.deep.equal(counts);
    }
  });

  it('past 20,000 edits a region counts as a plain replace (git counts the minimal script); at 18,000 it is exact', () => {
    // 12,000 distinct lines, 9 in 10 rewritten: git's minimal script has 21,600 edits.
    const a = Array.from({ length: 12000 }, (_, i) => `keep or change ${i}\n`);
    const over = a.map((l, i) => (i % 10 === 0 ? l : `changed ${i}\n`));
    // 10,000 lines, 9 in 10 rewritten: 18,000 edits, under the cutoff.
    const a2 = a.slice(0, 10000);
    const under = a2.map((l, i) => (i % 10 === 0 ? l : `changed ${i}\n`));
    // A shared prefix and suffix are trimmed first and do not count toward the cutoff.
    const framed = [...text(5000, 100), ...a2, ...text(5000, 100)];
    const framedUnder = [...framed.slice(0, 5000), ...under, ...framed.slice(15000)];
    const pairs = [
      { name: 'over.txt', a: a.join(''), b: over.join('') },
      { name: 'under.txt', a: a2.join(''), b: under.join('') },
      { name: 'framed.txt', a: framed.join(''), b: framedUnder.join('') },
    ];
    const want = gitNumstat(pairs);
    expect(want.get('over.txt')).to.deep.equal({ additions: 10800, deletions: 10800 });
    // Line 0 is kept, so it is trimmed as a shared prefix; the 11,999 lines after it are replaced.
    expect(countChanges(pairs[0].a, pairs[0].b)).to.deep.equal({ additions: 11999, deletions: 11999 });
    expect(editDistance(Int32Array.from(a.map((_, i) => i)), Int32Array.from(over.map((l, i) => (l === a[i] ? i : 100000 + i))), 20000)).to.equal(-1);
    expect(want.get('under.txt')).to.deep.equal({ additions: 9000, deletions: 9000 });
    expect(countChanges(pairs[1].a, pairs[1].b)).to.deep.equal(want.get('under.txt'));
    expect(countChanges(pairs[2].a, pairs[2].b)).to.deep.equal(want.get('framed.txt'));
  });
});
