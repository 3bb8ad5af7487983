// src/git/odb.ts (the pack reader) and RepoReader on top of it, against `git cat-file`: packs
// with long OFS_DELTA and REF_DELTA chains, loose objects beside packs, two packs, a pack
// pushed after the reader first looked, alternates, unknown ids, corrupt and truncated packs.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { ObjectStore, EMPTY_TREE, applyDelta, parseTree, readBlob, readCommit, readTree, storeFor, tryRead } from '../../src/git/odb.js';
import { RepoReader } from '../../src/git/reader.js';
import { allObjects, git, gitBuf, looseCount, packEntries, packFiles, rng, tempDir, type OracleObject } from './git_oracle.js';

const rand = rng(20261122);

function randomLine(): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'pack', 'tree', 'blob', 'wharf', 'x', '{', '}', 'return 0;'];
  const n = 1 + rand.int(8);
  return Array.from({ length: n }, () => rand.pick(words)).join(' ') + ` ${rand.int(1000)}\n`;
}

function randomBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rand.int(256);
  return b;
}

/** Every object the store gives back equals git's bytes and type; returns how many were checked. */
function expectSameObjects(store: ObjectStore, oracle: Map<string, OracleObject>): number {
  let n = 0;
  for (const [oid, want] of oracle) {
    const got = store.read(oid);
    expect(got, oid).to.not.equal(null);
    expect(got!.type, oid).to.equal(want.type);
    expect(got!.data.equals(want.data), `bytes of ${want.type} ${oid}`).to.equal(true);
    n++;
  }
  return n;
}

const kinds = (gitdir: string) => packFiles(gitdir).flatMap((p) => packEntries(p).map((e) => e.kind));

function copyRepo(from: string, to: string): string {
  fs.cpSync(from, to, { recursive: true });
  return to;
}

describe('git/odb: the pack reader against git cat-file', function () {
  this.timeout(60000);
  let root: string;
  let work: string;
  let bare: string;
  let oracle: Map<string, OracleObject>;
  let commits: string[];
  let clock = 1_600_000_000;

  const commitAll = (msg: string) => {
    clock += 100;
    const date = `${clock} +0200`;
    git(work, ['add', '-A']);
    git(work, ['commit', '-q', '--allow-empty', '-m', msg], { env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
    return git(work, ['rev-parse', 'HEAD']).trim();
  };
  const write = (file: string, content: string | Buffer) => {
    const p = path.join(work, file);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  };

  before(() => {
    root = tempDir('wharf-odb-');
    work = path.join(root, 'work');
    fs.mkdirSync(work);
    git(work, ['init', '-q', '-b', 'master']);
    git(work, ['config', 'core.autocrlf', 'false']);
    commits = [];
    // A text file with many versions (long delta chains), a binary, an empty file, a
    // > 1 MB file, an executable, a symlink, nested directories, a non-ASCII name.
    let lines = Array.from({ length: 200 }, randomLine);
    const big = Array.from({ length: 45000 }, randomLine).join('');
    expect(big.length).to.be.greaterThan(1 << 20);
    let bin = randomBytes(30000);
    write('text.txt', lines.join(''));
    write('bin.dat', bin);
    write('empty.txt', '');
    write('big/large.txt', big);
    write('dir/sub/deep.txt', 'deep\n');
    write('naïve – file.txt', 'unicode name\n');
    write('run.sh', '#!/bin/sh\necho hi\n');
    fs.chmodSync(path.join(work, 'run.sh'), 0o755);
    fs.symlinkSync('text.txt', path.join(work, 'link'));
    commits.push(commitAll('root commit\n\nwith a body\n'));
    for (let v = 1; v <= 60; v++) {
      lines = lines.slice();
      for (let k = 0; k < 3; k++) lines[rand.int(lines.length)] = randomLine();
      if (v % 7 === 0) lines.push(randomLine());
      write('text.txt', lines.join(''));
      if (v % 10 === 0) {
        bin = Buffer.from(bin);
        for (let k = 0; k < 20; k++) bin[rand.int(bin.length)] = rand.int(256);
        write('bin.dat', bin);
      }
      if (v % 20 === 0) write('big/large.txt', big.slice(0, 500_000) + randomLine() + big.slice(500_000) + randomLine());
      if (v % 15 === 0) write(`dir/sub/v${v}.txt`, `version ${v}\n`);
      commits.push(commitAll(`version ${v}`));
    }
    git(work, ['tag', '-a', 'v1', '-m', 'annotated\ntag', commits[30]]);
    bare = path.join(root, 'repo.git');
    git(root, ['clone', '-q', '--bare', work, bare]);
    git(bare, ['repack', '-q', '-adf', '--depth=50', '--window=250']);
    oracle = allObjects(bare);
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds the pack it means to test: one pack, no loose objects, OFS_DELTA chains deeper than 10', () => {
    expect(packFiles(bare)).to.have.length(1);
    expect(looseCount(bare)).to.equal(0);
    const k = kinds(bare);
    expect(k.filter((x) => x === 6).length).to.be.greaterThan(50);
    expect(k.filter((x) => x === 7).length).to.equal(0);
    const chains = [...git(bare, ['verify-pack', '-v', packFiles(bare)[0]]).matchAll(/^chain length = (\d+):/gm)].map((m) => Number(m[1]));
    expect(Math.max(...chains)).to.be.at.least(10);
    expect([...oracle.values()].map((o) => o.type)).to.include.members(['commit', 'tree', 'blob', 'tag']);
  });

  it('reads every object of an OFS_DELTA pack byte for byte (fresh store, then again from the base cache)', () => {
    const store = new ObjectStore(bare);
    expect(expectSameObjects(store, oracle)).to.equal(oracle.size);
    expect(expectSameObjects(new ObjectStore(bare), oracle)).to.equal(oracle.size);
    // The > 1 MB blob and the empty blob are among them.
    const sizes = [...oracle.values()].filter((o) => o.type === 'blob').map((o) => o.data.length);
    expect(Math.max(...sizes)).to.be.greaterThan(1 << 20);
    expect(sizes).to.include(0);
  });

  it('reads every object of a REF_DELTA pack (repack.useDeltaBaseOffset=false) byte for byte', () => {
    const refRepo = copyRepo(bare, path.join(root, 'ref.git'));
    git(refRepo, ['-c', 'repack.useDeltaBaseOffset=false', 'repack', '-q', '-adf', '--depth=50', '--window=250']);
    const k = kinds(refRepo);
    expect(k.filter((x) => x === 7).length).to.be.greaterThan(50);
    expect(k.filter((x) => x === 6).length).to.equal(0);
    expect(allObjects(refRepo).size).to.equal(oracle.size);
    expect(expectSameObjects(new ObjectStore(refRepo), oracle)).to.equal(oracle.size);
  });

  it('agrees with git cat-file -p through tryRead, readBlob, readCommit, readTree and parseTree', async () => {
    for (const [oid, want] of oracle) {
      const got = tryRead(bare, oid)!;
      expect(got.data.equals(want.data), oid).to.equal(true);
      if (want.type === 'blob') expect((await readBlob(bare, oid)).equals(want.data), oid).to.equal(true);
      if (want.type === 'tree') {
        // `git cat-file -p <tree>` (`ls-tree` format): mode type oid TAB name.
        const printed = git(bare, ['-c', 'core.quotePath=false', 'cat-file', '-p', oid]);
        const mine = (await readTree(bare, oid)).map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.name}\n`).join('');
        expect(mine, oid).to.equal(printed);
        expect(parseTree(want.data)).to.deep.equal(await readTree(bare, oid));
      }
      if (want.type === 'commit') {
        const c = await readCommit(bare, oid);
        const [tree, parents, an, ae, at, cn, ce, ct] = git(bare, ['show', '-s', '--format=%T%n%P%n%an%n%ae%n%at%n%cn%n%ce%n%ct', oid]).split('\n');
        expect(c.tree).to.equal(tree);
        expect(c.parent).to.deep.equal(parents ? parents.split(' ') : []);
        expect([c.author.name, c.author.email, c.author.timestamp, c.author.timezoneOffset]).to.deep.equal([an, ae, Number(at), -120]);
        expect([c.committer.name, c.committer.email, c.committer.timestamp]).to.deep.equal([cn, ce, Number(ct)]);
        expect(c.message).to.equal(git(bare, ['show', '-s', '--format=%B', oid]).replace(/\n+$/, '\n'));
      }
    }
  });

  it('RepoReader: commit, treeEntries, blobAt and blobById equal git for every commit', async () => {
    const reader = new RepoReader(bare);
    for (const c of [commits[0], commits[15], commits[40], commits[60]]) {
      const info = await reader.commit(c);
      expect(info.tree).to.equal(git(bare, ['rev-parse', `${c}^{tree}`]).trim());
      expect(info.parents).to.deep.equal(git(bare, ['rev-list', '--parents', '-n1', c]).trim().split(' ').slice(1));
      // Every tree (recursively) as git ls-tree lists it, every blob by path and by id.
      const listing = git(bare, ['ls-tree', '-r', '-t', '-z', c]).split('\0').filter(Boolean);
      const trees = [info.tree, ...listing.filter((l) => l.split(' ')[1] === 'tree').map((l) => l.split('\t')[0].split(' ')[2])];
      for (const t of trees) {
        const want = git(bare, ['ls-tree', '-z', t])
          .split('\0')
          .filter(Boolean)
          .map((l) => {
            const [meta, name] = l.split('\t');
            const [mode, type, oid] = meta.split(' ');
            return { name, oid, type, mode };
          });
        expect(await reader.treeEntries(t), t).to.deep.equal(want);
      }
      for (const line of listing) {
        const [meta, file] = line.split('\t');
        const [, type, oid] = meta.split(' ');
        if (type !== 'blob') continue;
        const want = oracle.get(oid)!.data;
        const at = (await reader.blobAt(c, file))!;
        expect(at.oid, file).to.equal(oid);
        expect(Buffer.from(at.content).equals(want), file).to.equal(true);
        expect(Buffer.from((await reader.blobById(oid))!.content).equals(want)).to.equal(true);
        expect((await reader.blobById(oid.slice(0, 12)))!.oid).to.equal(oid);
      }
    }
    // The annotated tag peels to its commit; a tree is not a blob.
    expect(await reader.resolveCommit('v1')).to.equal(commits[30]);
    expect(await reader.blobById(git(bare, ['rev-parse', `${commits[0]}^{tree}`]).trim())).to.equal(null);
  });

  it('reads loose objects next to two packs', () => {
    const multi = path.join(root, 'multi.git');
    git(root, ['clone', '-q', '--bare', work, multi]);
    git(multi, ['repack', '-q', '-adf']);
    const store = new ObjectStore(multi);
    // A push of a few objects lands loose (below receive.unpackLimit); `repack -d` makes a second pack.
    write('text.txt', 'second pack\n');
    commitAll('into the second pack');
    git(work, ['push', '-q', multi, 'master']);
    expect(looseCount(multi)).to.be.greaterThan(0);
    git(multi, ['repack', '-q', '-d']);
    expect(packFiles(multi)).to.have.length(2);
    expect(looseCount(multi)).to.equal(0);
    write('text.txt', 'loose again\n');
    write('new.bin', randomBytes(5000));
    commitAll('loose objects');
    git(work, ['push', '-q', multi, 'master']);
    expect(looseCount(multi)).to.be.greaterThan(2);
    const all = allObjects(multi);
    expect(all.size).to.be.greaterThan(oracle.size);
    expect(expectSameObjects(store, all)).to.equal(all.size);
    expect(expectSameObjects(new ObjectStore(multi), all)).to.equal(all.size);
  });

  it('finds a pack pushed after the reader first looked (receive.unpackLimit=1, a thin pack completed with REF_DELTA)', async () => {
    const late = path.join(root, 'late.git');
    git(root, ['clone', '-q', '--bare', work, late]);
    git(late, ['repack', '-q', '-adf']);
    git(late, ['config', 'receive.unpackLimit', '1']);
    const before = allObjects(late);
    const reader = new RepoReader(late);
    const shared = storeFor(late);
    expect(expectSameObjects(shared, before)).to.equal(before.size);
    const packsBefore = packFiles(late);
    // Small edits of big files: the pushed (thin) pack holds deltas against objects it lacks.
    const text = fs.readFileSync(path.join(work, 'big/large.txt'), 'utf8');
    write('big/large.txt', text.replace(/^.*$/m, 'changed first line'));
    const pushed = [commitAll('pushed late 1')];
    write('big/large.txt', text.replace(/^.*$/m, 'changed again') + 'tail\n');
    pushed.push(commitAll('pushed late 2'));
    git(work, ['push', '-q', late, 'master']);
    const packsAfter = packFiles(late);
    expect(packsAfter.length).to.equal(packsBefore.length + 1);
    expect(looseCount(late)).to.equal(0);
    const newPack = packsAfter.find((p) => !packsBefore.includes(p))!;
    expect(packEntries(newPack).some((e) => e.kind === 7 || e.kind === 6)).to.equal(true);
    const after = allObjects(late);
    expect(after.size).to.be.greaterThan(before.size);
    // The same (shared) store that listed the folder before the push answers for the new objects.
    expect(expectSameObjects(shared, after)).to.equal(after.size);
    for (const c of pushed) {
      expect(tryRead(late, c)!.type).to.equal('commit');
      const info = await reader.commit(c);
      expect(info.parents[0]).to.equal(git(late, ['rev-parse', `${c}^`]).trim());
      const blob = (await reader.blobAt(c, 'big/large.txt'))!;
      expect(Buffer.from(blob.content).equals(gitBuf(late, ['cat-file', 'blob', `${c}:big/large.txt`]))).to.equal(true);
    }
  });

  it('reads objects that live in an alternate (absolute and relative objects/info/alternates)', async () => {
    const alt = path.join(root, 'alt.git');
    git(root, ['clone', '-q', '--bare', '--shared', bare, alt]);
    expect(fs.readFileSync(path.join(alt, 'objects', 'info', 'alternates'), 'utf8').trim()).to.equal(path.join(bare, 'objects'));
    write('alt-only.txt', 'only in the alternate user\n');
    const own = commitAll('alt only');
    git(work, ['push', '-q', alt, 'master']);
    const all = allObjects(alt);
    expect(all.size).to.be.greaterThan(oracle.size);
    expect(expectSameObjects(new ObjectStore(alt), all)).to.equal(all.size);
    const reader = new RepoReader(alt);
    expect((await reader.commit(commits[5])).tree).to.equal(git(bare, ['rev-parse', `${commits[5]}^{tree}`]).trim());
    expect(Buffer.from((await reader.blobAt(own, 'text.txt'))!.content).equals(gitBuf(alt, ['cat-file', 'blob', `${own}:text.txt`]))).to.equal(true);

    const rel = path.join(root, 'nested', 'rel.git');
    fs.mkdirSync(path.dirname(rel));
    git(root, ['init', '-q', '--bare', rel]);
    fs.writeFileSync(path.join(rel, 'objects', 'info', 'alternates'), '# a comment\n../../../repo.git/objects\n');
    const relAll = allObjects(rel);
    expect(relAll.size).to.equal(oracle.size); // git itself follows the relative path
    expect(expectSameObjects(new ObjectStore(rel), relAll)).to.equal(relAll.size);
  });

  it("answers null (or the fallback's error) for unknown and malformed ids, without throwing", async () => {
    const store = new ObjectStore(bare);
    const unknown = ['0'.repeat(40), 'deadbeef'.repeat(5), 'ff'.repeat(20)];
    for (const oid of unknown) {
      expect(store.read(oid), oid).to.equal(null);
      expect(tryRead(bare, oid), oid).to.equal(null);
    }
    for (const bad of ['', 'abc', 'g'.repeat(40), commits[0].slice(0, 39), `${commits[0]}0`, `../${commits[0]}`]) {
      expect(store.read(bad), bad).to.equal(null);
    }
    // The empty tree exists for git without being stored.
    expect(gitBuf(bare, ['cat-file', '-t', EMPTY_TREE]).toString().trim()).to.equal('tree');
    expect(store.read(EMPTY_TREE)).to.deep.equal({ type: 'tree', data: Buffer.alloc(0) });
    const reader = new RepoReader(bare);
    for (const oid of unknown) {
      expect(await reader.blobById(oid)).to.equal(null);
      expect(await reader.blob(oid)).to.equal(null);
      expect(await reader.treeEntries(oid)).to.equal(null);
      expect(await reader.blobAt(oid, 'text.txt')).to.equal(null);
      let failed = false;
      await reader.commit(oid).catch(() => (failed = true));
      expect(failed, `commit(${oid}) rejects`).to.equal(true);
      failed = false;
      await readBlob(bare, oid).catch(() => (failed = true));
      expect(failed, `readBlob(${oid}) rejects`).to.equal(true);
    }
    expect(await reader.blobAt(commits[60], 'no/such/file')).to.equal(null);
    expect(await reader.blobAt(commits[60], 'dir')).to.equal(null);
    expect(new ObjectStore(path.join(root, 'does-not-exist.git')).read(commits[0])).to.equal(null);
  });

  it('applyDelta rejects deltas whose base size or copies do not fit', () => {
    const base = Buffer.from('hello world');
    // base size 11, result 5, copy offset 6 length 5.
    expect(applyDelta(Buffer.from([11, 5, 0x91, 6, 5]), base).toString()).to.equal('world');
    expect(() => applyDelta(Buffer.from([12, 5, 0x91, 6, 5]), base)).to.throw(/base size/);
    expect(() => applyDelta(Buffer.from([11, 5, 0x91, 8, 5]), base)).to.throw(/out of range/);
    expect(() => applyDelta(Buffer.from([11, 6, 0x91, 6, 5]), base)).to.throw(/size mismatch/);
    expect(() => applyDelta(Buffer.from([11, 1, 0]), base)).to.throw(/opcode 0/);
  });

  describe('corrupt and truncated packs (on copies)', () => {
    const isCorrectOrNull = (got: { type: string; data: Buffer } | null, want: OracleObject) => got === null || (got.type === want.type && got.data.equals(want.data));

    it('a flipped byte inside compressed data: that object (and what deltas on it) answers null, the rest is right', async () => {
      const copy = copyRepo(bare, path.join(root, 'flipped.git'));
      const pack = packFiles(copy)[0];
      const entries = packEntries(pack);
      const bytes = fs.readFileSync(pack);
      const hit = new Set<string>();
      entries.forEach((e, i) => {
        if (i % 9 !== 4) return;
        const payload = e.end - e.offset - e.headerLength;
        bytes[e.offset + e.headerLength + Math.min(4, payload - 1)] ^= 0x5a;
        hit.add(e.oid);
      });
      fs.writeFileSync(pack, bytes);
      expect(hit.size).to.be.greaterThan(10);
      let nulls = 0;
      let right = 0;
      for (const [oid, want] of oracle) {
        const got = tryRead(copy, oid);
        expect(isCorrectOrNull(got, want), oid).to.equal(true);
        if (hit.has(oid)) expect(got, `corrupted ${oid}`).to.equal(null);
        if (got) right++;
        else nulls++;
      }
      expect(nulls).to.be.at.least(hit.size);
      expect(right).to.be.greaterThan(0);
      // RepoReader falls back to isomorphic-git, which must not crash the process either.
      const reader = new RepoReader(copy);
      for (const oid of hit) {
        const want = oracle.get(oid)!;
        if (want.type === 'blob') {
          const b = await reader.blobById(oid);
          expect(b === null || Buffer.from(b.content).equals(want.data)).to.equal(true);
        }
        if (want.type === 'tree') {
          const t = await reader.treeEntries(oid);
          expect(t === null || JSON.stringify(t) === JSON.stringify(parseTree(want.data))).to.equal(true);
        }
        if (want.type === 'commit')
          await reader.commit(oid).then(
            (c) => expect(c.tree).to.equal(parseTreeLine(want.data)),
            () => undefined,
          );
      }
    });

    it('a truncated pack: objects past the cut answer null, none wrong, nothing thrown', async () => {
      const copy = copyRepo(bare, path.join(root, 'truncated.git'));
      const pack = packFiles(copy)[0];
      const entries = packEntries(pack);
      const size = fs.statSync(pack).size;
      const cut = Math.floor(size * 0.6);
      fs.truncateSync(pack, cut);
      let nulls = 0;
      for (const [oid, want] of oracle) {
        const got = tryRead(copy, oid);
        expect(isCorrectOrNull(got, want), oid).to.equal(true);
        const e = entries.find((x) => x.oid === oid);
        if (e && e.end > cut) expect(got, `past the cut: ${oid} ${JSON.stringify(e)} cut=${cut} size=${size}`).to.equal(null);
        if (!got) nulls++;
      }
      expect(nulls).to.be.greaterThan(0);
      const reader = new RepoReader(copy);
      const lastBlob = entries.filter((e) => e.offset > cut && oracle.get(e.oid)!.type === 'blob').pop()!;
      expect(lastBlob, 'a blob past the cut').to.not.equal(undefined);
      expect(await reader.blobById(lastBlob.oid)).to.equal(null);
      expect(await reader.blob(lastBlob.oid)).to.equal(null);
      // Cut inside the very first object's header (a fresh copy: what was read whole stays cached).
      const copy2 = copyRepo(bare, path.join(root, 'truncated2.git'));
      fs.truncateSync(packFiles(copy2)[0], 13);
      for (const oid of oracle.keys()) expect(tryRead(copy2, oid), oid).to.equal(null);
    });

    it('a corrupt or truncated index: the pack is skipped, reads answer null', () => {
      const copy = copyRepo(bare, path.join(root, 'badidx.git'));
      const idx = packFiles(copy)[0].replace(/\.pack$/, '.idx');
      const good = fs.readFileSync(idx);
      fs.writeFileSync(idx, Buffer.concat([Buffer.from('junk'), good.subarray(4)]));
      for (const oid of [...oracle.keys()].slice(0, 50)) expect(tryRead(copy, oid)).to.equal(null);
      const copy2 = copyRepo(bare, path.join(root, 'shortidx.git'));
      const idx2 = packFiles(copy2)[0].replace(/\.pack$/, '.idx');
      fs.writeFileSync(idx2, good.subarray(0, Math.floor(good.length / 2)));
      for (const [oid, want] of [...oracle].slice(0, 100)) expect(isCorrectOrNull(tryRead(copy2, oid), want)).to.equal(true);
      // The original is untouched and still fully readable.
      expect(expectSameObjects(new ObjectStore(bare), oracle)).to.equal(oracle.size);
    });
  });
});

function parseTreeLine(commit: Buffer): string {
  return /^tree ([0-9a-f]{40})/.exec(commit.toString('latin1'))![1];
}
