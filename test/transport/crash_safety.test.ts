// Killing the server (SIGKILL, a child process) in the middle of repository work and starting
// it again on the same database and repositories. After the
// restart: every repository passes `git fsck`, every branch points at a commit, every 201
// commit is on its branch in the project's repository, every project row has its folder and
// no folder is left without a project, and the branches take new commits.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { isPostgresUrl, WRITER_LOCK_KEY } from '../../src/store/db.js';
import { ChildServer, removeDataDir, tempDataDir } from '../helpers/child_server.js';
import { expectFsckClean, git, head } from '../helpers/bare_git.js';
import { repositoriesOnDisk } from '../helpers/disk.js';
import type { Reply } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds the database's write lock from this process until released: the server's writes wait
 * (SQLite's lock; on PostgreSQL the advisory lock every Wharf write transaction takes). */
async function holdWriteLock(target: string): Promise<() => Promise<void>> {
  if (isPostgresUrl(target)) {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [WRITER_LOCK_KEY]);
    return async () => {
      await client.query('ROLLBACK');
      await client.end();
    };
  }
  const db = new sqlite3.Database(target);
  db.configure('busyTimeout', 10_000);
  await new Promise<void>((resolve, reject) => db.exec('BEGIN IMMEDIATE', (err) => (err ? reject(err) : resolve())));
  return () => new Promise<void>((resolve) => db.exec('ROLLBACK', () => db.close(() => resolve())));
}

async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function created(r: Reply): any {
  expect(r.status, r.text).to.equal(201);
  return r.body;
}

async function seededProject(s: ChildServer, name: string): Promise<{ id: number; fullPath: string }> {
  const p = created(await s.request('POST', '/projects', { json: { name } }));
  created(
    await s.request('POST', `/projects/${p.id}/repository/commits`, {
      json: { branch: 'master', commit_message: 'seed', actions: [{ action: 'create', file_path: 'README.md', content: 'seed\n' }] },
    }),
  );
  return { id: p.id, fullPath: p.path_with_namespace };
}

/** A commit on master, retried while the branch is busy (a lock left by the kill clears within its bound). */
async function commitAfterRestart(s: ChildServer, id: number, file: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await s.request('POST', `/projects/${id}/repository/files/${encodeURIComponent(file)}`, {
      json: { branch: 'master', content: `${file}\n`, commit_message: file },
    });
    if (r.status === 201 || r.status !== 400 || Date.now() > deadline) return created(r).file_path;
    await sleep(250);
  }
}

/** The projects as the database has them, each with its folder, which must exist and be sound. */
async function expectConsistent(s: ChildServer): Promise<Map<number, string>> {
  const r = await s.request('GET', '/projects', { json: undefined });
  expect(r.status, r.text).to.equal(200);
  const paths = new Map<number, string>((r.body as any[]).map((p) => [p.id, p.path_with_namespace]));
  for (const fullPath of paths.values()) {
    const dir = path.join(s.reposDir, `${fullPath}.git`);
    expect(fs.existsSync(path.join(dir, 'HEAD')), `${fullPath} has its repository`).to.equal(true);
    expectFsckClean(dir);
    for (const line of git(dir, ['for-each-ref', '--format=%(objectname) %(refname)']).trim().split('\n').filter(Boolean)) {
      const [oid, ref] = line.split(' ');
      expect(git(dir, ['cat-file', '-t', oid]).trim(), ref).to.equal('commit');
    }
  }
  expect(repositoriesOnDisk(s.reposDir), 'folders on disk').to.deep.equal([...paths.values()].sort());
  return paths;
}

describe('Crash safety: SIGKILL during repository work, then a restart', function () {
  this.timeout(180_000);
  let dir: string;
  let s: ChildServer | null = null;

  beforeEach(() => {
    dir = tempDataDir();
  });
  afterEach(async () => {
    await s?.stop();
    s = null;
    await removeDataDir(dir);
  });

  it('undoes a rename killed between moving the folder and writing the row', async () => {
    s = await ChildServer.start(dir);
    const p = await seededProject(s, 'moving');
    const oldDir = path.join(s.reposDir, `${p.fullPath}.git`);
    const release = await holdWriteLock(s.dbTarget);
    const rename = s.request('PUT', `/projects/${p.id}`, { json: { path: 'moved' } });
    try {
      await until('the folder to move', () => !fs.existsSync(oldDir));
      await s.kill();
    } finally {
      await release();
    }
    expect((await rename).status).to.equal(0); // the connection died with the server

    s = await ChildServer.start(dir);
    const project = await s.request('GET', `/projects/${p.id}`);
    expect(project.body.path_with_namespace).to.equal(p.fullPath);
    const commits = await s.request('GET', `/projects/${p.id}/repository/commits`);
    expect(commits.status, commits.text).to.equal(200);
    expect(commits.body.map((c: { title: string }) => c.title)).to.deep.equal(['seed']);
    await expectConsistent(s);
    // And the rename works once nothing is in its way.
    const again = await s.request('PUT', `/projects/${p.id}`, { json: { path: 'moved' } });
    expect(again.status, again.text).to.equal(200);
    expect(head(path.join(s.reposDir, 'root', 'moved.git'), 'master')).to.equal(commits.body[0].id);
    await expectConsistent(s);
  });

  it('keeps the project and its repository when a delete is killed before its rows are gone', async () => {
    s = await ChildServer.start(dir);
    const p = await seededProject(s, 'doomed');
    const projectDir = path.join(s.reposDir, `${p.fullPath}.git`);
    const release = await holdWriteLock(s.dbTarget);
    const del = s.request('DELETE', `/projects/${p.id}`);
    try {
      await until('the delete to start', () => !fs.existsSync(projectDir), 3000).catch(() => undefined);
      await s.kill();
    } finally {
      await release();
    }
    expect((await del).status).to.equal(0);

    s = await ChildServer.start(dir);
    const project = await s.request('GET', `/projects/${p.id}`);
    expect(project.status, project.text).to.equal(200);
    await expectConsistent(s);
    const gone = await s.request('DELETE', `/projects/${p.id}`);
    expect(gone.status, gone.text).to.equal(202);
    await expectConsistent(s);
    expect(fs.readdirSync(path.join(s.reposDir, '@wharf', 'trash'))).to.deep.equal([]);
  });

  it('clears ref lock files left by a killed process when it starts', async () => {
    s = await ChildServer.start(dir);
    const p = await seededProject(s, 'locked');
    await s.stop();
    const repo = path.join(dir, 'repos', `${p.fullPath}.git`);
    const lock = path.join(repo, 'refs', 'heads', 'master.lock');
    fs.writeFileSync(lock, `${head(repo, 'master')}\n`);
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(lock, hourAgo, hourAgo);

    s = await ChildServer.start(dir);
    expect(fs.existsSync(lock)).to.equal(false);
  });

  it('leaves sound repositories, every 201 commit on its branch and no stray folder after kills during writes and renames', async () => {
    s = await ChildServer.start(dir);
    const projects = [await seededProject(s, 'busy-a'), await seededProject(s, 'busy-b'), await seededProject(s, 'busy-c')];
    const landed: { project: number; branch: string; sha: string }[] = [];
    let seq = 0;

    for (let round = 0; round < 3; round++) {
      const server: ChildServer = s;
      let stop = false;
      let answered = 0;
      const writer = async (project: number, toMaster: boolean) => {
        while (!stop) {
          const i = seq++;
          const branch = toMaster ? 'master' : `r${round}-w${i}`;
          const r = await server.request('POST', `/projects/${project}/repository/commits`, {
            json: {
              branch,
              ...(toMaster ? {} : { start_branch: 'master' }),
              commit_message: `c${i}`,
              actions: [{ action: 'create', file_path: `f${i}.txt`, content: `${i}\n`.repeat(1 + (i % 300)) }],
            },
          });
          if (r.status === 0) return;
          expect([201, 400, 404, 409], r.text).to.include(r.status);
          if (r.status === 201) landed.push({ project, branch, sha: r.body.id });
          answered++;
        }
      };
      const renamer = async (project: number) => {
        for (let i = 0; !stop; i++) {
          const r = await server.request('PUT', `/projects/${project}`, { json: { path: `busy-a-${round}-${i}` } });
          if (r.status === 0) return;
          expect(r.status, r.text).to.equal(200);
        }
      };
      const load = [...projects.flatMap((p) => [writer(p.id, true), writer(p.id, false), writer(p.id, false)]), renamer(projects[0].id)];
      await until('some writes', () => answered >= 20 + round * 7, 60_000);
      await sleep(round * 11);
      await server.kill();
      stop = true;
      await Promise.all(load);

      s = await ChildServer.start(dir);
      const paths = await expectConsistent(s);
      for (const c of landed) {
        const repo = path.join(s.reposDir, `${paths.get(c.project)}.git`);
        const onBranch = git(repo, ['merge-base', '--is-ancestor', c.sha, `refs/heads/${c.branch}`], {}).trim();
        expect(onBranch, `${c.sha} on ${c.branch}`).to.equal('');
      }
      for (const p of projects) await commitAfterRestart(s, p.id, `after-${round}.txt`);
      await expectConsistent(s);
    }
    expect(landed.length, 'commits acknowledged across the rounds (renames make many writes answer 404 or 409)').to.be.at.least(10);
  });
});
