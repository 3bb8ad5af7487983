// src/git/stats_store.ts and the commit_stats table (migrations/20261122000003): rows are
// written once, read back identical, outlive the server process that wrote them, and
// contributors computed with the store equal those computed without it (and git's numstat).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { bootServer, type TestServer } from '../helpers/server.js';
import { WorkTree, git } from '../helpers/compare_git.js';
import { dbStatsStore, STATS_VERSION, statsKey } from '../../src/git/stats_store.js';
import { openDb, type Db } from '../../src/store/db.js';
import { tempDir } from './git_oracle.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test_db.js';

const DIST = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

interface Row {
  commit_oid: string;
  base_oid: string;
  version: number;
  additions: number;
  deletions: number;
}

async function rowsOf(db: Db): Promise<Row[]> {
  const rows = await db('commit_stats').select('commit_oid', 'base_oid', 'version', 'additions', 'deletions').orderBy(['commit_oid', 'base_oid', 'version']);
  return rows.map((r: Row) => ({ ...r, additions: Number(r.additions), deletions: Number(r.deletions), version: Number(r.version) }));
}

/** Per non-merge commit of master: [first parent or '', additions, deletions], from git log --numstat. */
function gitNumstat(bare: string): Map<string, [string, number, number]> {
  const out = new Map<string, [string, number, number]>();
  let cur = '';
  for (const line of git(bare, ['log', '--no-merges', '--numstat', '-M', '--format=@%H %P', 'master']).split('\n')) {
    if (line.startsWith('@')) {
      const [c, p] = line.slice(1).split(' ');
      cur = c;
      out.set(c, [p ?? '', 0, 0]);
    } else if (/^(\d+|-)\t(\d+|-)\t/.test(line)) {
      const [a, d] = line.split('\t');
      const e = out.get(cur)!;
      e[1] += a === '-' ? 0 : Number(a);
      e[2] += d === '-' ? 0 : Number(d);
    }
  }
  return out;
}

const byEmail = (list: { email: string }[]) => [...list].sort((a, b) => (a.email < b.email ? -1 : 1));

// A fresh Node process: a whole server (GET contributors over HTTP), or contributorsAt with
// or without the store, counting what the store answered and what was written.
const CHILD = `
const [mode, dbFile, reposDir, bare, pid] = process.argv.slice(2);
const dist = ${JSON.stringify(DIST)};
if (mode === 'http') {
  const { bootServer } = await import(dist + '/test/helpers/server.js');
  const s = await bootServer({ WHARF_DB: dbFile, WHARF_REPOS: reposDir });
  const r = await s.get('/projects/' + pid + '/repository/contributors', { query: { per_page: 100 } });
  await s.close();
  console.log(JSON.stringify({ status: r.status, body: r.body }));
} else {
  const { openDb } = await import(dist + '/src/store/db.js');
  const { dbStatsStore } = await import(dist + '/src/git/stats_store.js');
  const { contributorsAt } = await import(dist + '/src/git/contributors.js');
  const { RepoReader } = await import(dist + '/src/git/reader.js');
  const db = openDb(dbFile);
  const inner = dbStatsStore(db);
  const seen = { asked: 0, answered: 0, saved: 0 };
  const store = {
    async load(keys) { seen.asked += keys.length; const m = await inner.load(keys); seen.answered += m.size; return m; },
    async save(rows) { seen.saved += rows.length; return inner.save(rows); },
  };
  const reader = new RepoReader(bare);
  const head = await reader.resolveCommit('master');
  const body = await contributorsAt(reader, head, mode === 'store' ? store : undefined);
  await db.destroy();
  console.log(JSON.stringify({ body, seen }));
}
`;

describe('git/stats_store: commit_stats rows across server processes', function () {
  this.timeout(60000);
  let dir: string;
  let database: TestDatabase;
  let dbFile: string; // WHARF_DB: a SQLite file or a PostgreSQL URL, shared by the processes
  let reposDir: string;
  let script: string;
  let s: TestServer;
  let pid: number;
  let bare: string;
  let work: WorkTree;
  let first: any[];
  let written: Row[];

  const child = (mode: 'http' | 'store' | 'nostore') =>
    JSON.parse(
      execFileSync(process.execPath, [script, mode, dbFile, reposDir, bare, String(pid)], { env: { ...process.env, WHARF_TEST_LOG: '' } })
        .toString()
        .trim()
        .split('\n')
        .pop()!,
    );

  before(async () => {
    dir = tempDir('wharf-stats-');
    database = await createTestDatabase(dir);
    dbFile = database.target;
    reposDir = path.join(dir, 'repos');
    script = path.join(dir, 'child.mjs');
    fs.writeFileSync(script, CHILD);
    s = await bootServer({ WHARF_DB: dbFile, WHARF_REPOS: reposDir });
    const created = await s.post('/projects', { json: { name: 'stats', visibility: 'public' } });
    pid = created.body.id;
    bare = path.join(reposDir, `${created.body.path_with_namespace}.git`);
    work = new WorkTree(bare);
    const who = [{ name: 'Zoe', email: 'zoe@example.com' }, { name: 'Bob', email: 'bob@example.com' }, undefined];
    let text = Array.from({ length: 40 }, (_, i) => `line ${i}\n`);
    for (let i = 0; i < 18; i++) {
      text = text.map((l, k) => ((k * 7 + i) % 11 === 0 ? `edited ${i} ${k}\n` : l));
      if (i % 3 === 0) text.push(`appended ${i}\n`);
      work.write('a.txt', text.join(''));
      if (i === 4) work.write('bin.dat', Buffer.from([0, 1, 2, i]));
      if (i === 6) work.move('a.txt', 'moved.txt').write('moved.txt', text.join(''));
      if (i > 6) work.write('moved.txt', text.join(''));
      if (i === 9) work.write('crlf.txt', 'one\r\ntwo\r\n');
      if (i === 12) work.remove('bin.dat');
      work.commit(`change ${i}`, who[i % 3]);
    }
    work.checkout('side', true).write('side.txt', 'side\n');
    work.commit('side work', who[1]);
    work.checkout('master');
    git(work.dir, ['merge', '-q', '--no-ff', '-m', 'merge side', 'side']);
    work.push('master');
  });

  after(async () => {
    work?.close();
    await s?.close().catch(() => undefined);
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the first contributors request writes one row per non-merge commit, equal to git log --numstat', async () => {
    expect(await rowsOf(s.db)).to.deep.equal([]);
    const r = await s.get(`/projects/${pid}/repository/contributors`, { query: { per_page: 100 } });
    expect(r.status).to.equal(200);
    first = r.body;
    written = await rowsOf(s.db);
    const want = gitNumstat(bare);
    expect(written.length).to.equal(want.size);
    for (const row of written) {
      const [base, additions, deletions] = want.get(row.commit_oid)!;
      expect(row, row.commit_oid).to.deep.equal({ commit_oid: row.commit_oid, base_oid: base, version: STATS_VERSION, additions, deletions });
    }
    // Summing the rows by author gives the answer.
    const authors = new Map(
      git(bare, ['log', '--no-merges', '--format=%H %ae', 'master'])
        .trim()
        .split('\n')
        .map((l) => l.split(' ') as [string, string]),
    );
    const sums = new Map<string, [number, number, number]>();
    for (const row of written) {
      const e = authors.get(row.commit_oid)!;
      const t = sums.get(e) ?? [0, 0, 0];
      sums.set(e, [t[0] + 1, t[1] + row.additions, t[2] + row.deletions]);
    }
    expect(Object.fromEntries(first.map((c: any) => [c.email, [c.commits, c.additions, c.deletions]]))).to.deep.equal(Object.fromEntries(sums));
    // A second request (memory caches) writes nothing more.
    await s.get(`/projects/${pid}/repository/contributors`);
    expect(await rowsOf(s.db)).to.deep.equal(written);
  });

  it('the rows survive the server: a new server process reads them, counts nothing, answers the same', async () => {
    await s.close();
    const again = child('http');
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first);
    const db = openDb(dbFile);
    try {
      expect(await rowsOf(db)).to.deep.equal(written);
    } finally {
      await db.destroy();
    }
    // In a fresh process with the store, every commit's counts come from the rows.
    const withStore = child('store');
    expect(withStore.seen).to.deep.equal({ asked: written.length, answered: written.length, saved: 0 });
    expect(byEmail(withStore.body)).to.deep.equal(byEmail(first));
  });

  it('contributors with the store equal contributors without it, and the store is really what is read', async () => {
    const without = child('nostore');
    expect(without.seen).to.deep.equal({ asked: 0, answered: 0, saved: 0 });
    expect(byEmail(without.body)).to.deep.equal(byEmail(first));
    // Change one stored row: a fresh process with the store believes it (rows are trusted as
    // a cache), one without does not. Then put it back.
    const db = openDb(dbFile);
    try {
      const row = written[0];
      const email = git(bare, ['show', '-s', '--format=%ae', row.commit_oid]).trim();
      await db('commit_stats')
        .where({ commit_oid: row.commit_oid, base_oid: row.base_oid })
        .update({ additions: row.additions + 1000 });
      const tampered = child('store');
      const expected = first.map((c: any) => (c.email === email ? { ...c, additions: c.additions + 1000 } : c));
      expect(byEmail(tampered.body)).to.deep.equal(byEmail(expected));
      expect(byEmail(child('nostore').body)).to.deep.equal(byEmail(first));
      await db('commit_stats').where({ commit_oid: row.commit_oid, base_oid: row.base_oid }).update({ additions: row.additions });
      expect(await rowsOf(db)).to.deep.equal(written);
    } finally {
      await db.destroy();
    }
  });

  it("a new head adds only the new commits' rows; old rows are never rewritten", async () => {
    work.write('moved.txt', 'all new\ncontent\n').write('new.txt', 'x\ny\nz\n');
    const c = work.commit('after restart');
    work.push('master');
    const r = child('http');
    expect(r.status).to.equal(200);
    const db = openDb(dbFile);
    try {
      const rows = await rowsOf(db);
      const added = rows.filter((x) => !written.some((w) => w.commit_oid === x.commit_oid));
      expect(rows.filter((x) => written.some((w) => w.commit_oid === x.commit_oid))).to.deep.equal(written);
      const [base, additions, deletions] = gitNumstat(bare).get(c)!;
      expect(added).to.deep.equal([{ commit_oid: c, base_oid: base, version: STATS_VERSION, additions, deletions }]);
      expect(byEmail(child('nostore').body)).to.deep.equal(byEmail(r.body));
    } finally {
      await db.destroy();
    }
  });

  describe('dbStatsStore on the migrated table', () => {
    let t: TestServer;
    before(async () => {
      t = await bootServer();
    });
    after(() => t.close());

    const oid = (i: number) => i.toString(16).padStart(40, '0');

    it('round-trips rows, keeps the first write of a key, tells bases and versions apart', async () => {
      const store = dbStatsStore(t.db);
      await store.save([
        { commit: oid(1), base: oid(2), additions: 5, deletions: 3 },
        { commit: oid(1), base: '', additions: 7, deletions: 0 },
        { commit: oid(3), base: oid(1), additions: 2 ** 40, deletions: 0 },
      ]);
      // Written once: a second save of the same key changes nothing.
      await store.save([{ commit: oid(1), base: oid(2), additions: 99, deletions: 99 }]);
      // A row of other counting rules is not read.
      await t.db('commit_stats').insert({ commit_oid: oid(4), base_oid: '', version: STATS_VERSION + 1, additions: 1, deletions: 1 });
      const got = await store.load([
        { commit: oid(1), base: oid(2) },
        { commit: oid(1), base: '' },
        { commit: oid(3), base: oid(1) },
        { commit: oid(3), base: oid(2) }, // another base: not stored
        { commit: oid(4), base: '' },
        { commit: oid(5), base: '' },
      ]);
      expect(Object.fromEntries(got)).to.deep.equal({
        [statsKey({ commit: oid(1), base: oid(2) })]: { additions: 5, deletions: 3 },
        [statsKey({ commit: oid(1), base: '' })]: { additions: 7, deletions: 0 },
        [statsKey({ commit: oid(3), base: oid(1) })]: { additions: 2 ** 40, deletions: 0 },
      });
      expect((await store.load([{ commit: oid(1), base: '' }])).size).to.equal(1);
      expect((await store.load([])).size).to.equal(0);
    });

    it('saves and loads more rows than one statement may bind (chunks)', async () => {
      const store = dbStatsStore(t.db);
      const rows = Array.from({ length: 1234 }, (_, i) => ({ commit: oid(10_000 + i), base: i % 2 ? '' : oid(i), additions: i, deletions: 2 * i }));
      await store.save(rows);
      await store.save(rows.slice(100, 900)); // again, overlapping: ignored
      const got = await store.load(rows.map(({ commit, base }) => ({ commit, base })));
      expect(got.size).to.equal(rows.length);
      for (const r of rows) expect(got.get(statsKey(r)), r.commit).to.deep.equal({ additions: r.additions, deletions: r.deletions });
    });
  });
});
