// A backup made by the real `npm run backup` (a process of its own) while a write storm runs
// against the server (API commits, git pushes, issues, notes, pipelines), restored by the real
// `npm run restore` into a fresh folder and a fresh database of the engine under test, and a
// server started on it: every repository passes `git fsck --full`, the database its integrity
// checks, every write acknowledged before the backup began is there, and ~80 API reads of the
// data the storm does not touch answer exactly as on the source. A SQLite backup also restores
// onto PostgreSQL on the PostgreSQL run (the same logical copy).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/test_db.js';
import { makeRichProject } from '../helpers/rich_project.js';
import { commit, gitOk, repoUrl, tempDir, workRepo } from '../transport/git_client.js';
import { openDb } from '../../src/store/db.js';
import { dataEnv, runTool } from './tools.js';

const EXTERNAL_URL = 'http://wharf.example';

function bareRepos(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('@')) continue;
      const p = path.join(d, e.name);
      if (e.name.endsWith('.git')) out.push(p);
      else walk(p);
    }
  };
  walk(root);
  return out;
}

describe('backup and restore', function () {
  this.timeout(300_000);
  let dir: string;
  let db: TestDatabase;
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const reads: { path: string; token: string }[] = [];
  let archive: string;
  let storm: any;
  const acknowledged: { issues: number[]; notes: number[]; shas: string[]; pipelines: number[] } = { issues: [], notes: [], shas: [], pipelines: [] };

  async function answers(server: TestServer): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for (const { path: p, token } of reads) {
      const r = await server.get(p, { token });
      out.set(`${token.slice(0, 6)} ${p}`, {
        status: r.status,
        body: r.body,
        total: r.headers.get('x-total'),
        link: (r.headers.get('link') ?? '').replaceAll(server.url, 'ORIGIN'),
      });
    }
    return out;
  }

  before(async () => {
    dir = tempDir('wharf-backup-src-');
    db = await createTestDatabase(dir);
    s = await bootServer({ ...dataEnv(dir, db.target), WHARF_EXTERNAL_URL: EXTERNAL_URL });
    const alice = await s.createUser('alice');
    const bob = await s.createUser('bob');
    Object.assign(tokens, { root: ROOT_TOKEN, alice: alice.token, bob: bob.token });
    const rich = await makeRichProject(s, alice.token, 'rich', bob);
    const group = (await s.post('/groups', { token: alice.token, json: { name: 'Team', path: 'team', visibility: 'internal' } })).body;
    const lib = (await s.post('/projects', { token: alice.token, json: { name: 'lib', namespace_id: group.id, visibility: 'private' } })).body;
    await s.post(`/projects/${lib.id}/repository/commits`, {
      token: alice.token,
      json: { branch: 'master', commit_message: 'lib', actions: [{ action: 'create', file_path: 'lib.txt', content: 'lib\n' }] },
    });
    const fork = (await s.post(`/projects/${rich.id}/fork`, { token: bob.token })).body;
    const lfs = Buffer.from('large file content\n');
    const oid = crypto.createHash('sha256').update(lfs).digest('hex');
    const put = await fetch(`${s.url}/${rich.path}.git/gitlab-lfs/objects/${oid}/${lfs.length}`, {
      method: 'PUT',
      headers: { Authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}` },
      body: lfs,
    });
    expect(put.status).to.equal(200);
    storm = (await s.post('/projects', { token: alice.token, json: { name: 'storm', visibility: 'private' } })).body;
    await s.post(`/projects/${storm.id}/repository/commits`, {
      token: alice.token,
      json: { branch: 'master', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'job:\n  script:\n    - echo hi\n' }] },
    });
    await s.drainJobs();

    const r = `/projects/${rich.id}`;
    // What the storm (in project `storm`) does not change; lists that would show its project are searched.
    const paths: [string, string[]][] = [
      ['/projects?search=rich&order_by=id&sort=asc', ['root', 'alice', 'bob']],
      ['/projects?search=lib', ['root', 'alice', 'bob']],
      [`${r}?statistics=true`, ['root', 'alice']],
      [r, ['alice', 'bob']],
      [`/projects/${lib.id}`, ['root', 'alice', 'bob']],
      [`/projects/${fork.id}`, ['alice', 'bob']],
      [`${r}/forks`, ['alice', 'bob']],
      [`${r}/members`, ['alice', 'bob']],
      [`${r}/users`, ['alice']],
      [`/groups/${group.id}`, ['alice', 'bob']],
      [`/groups/${group.id}/projects`, ['alice']],
      ['/groups', ['root', 'alice', 'bob']],
      ['/users?order_by=id&sort=asc', ['root', 'alice', 'bob']],
      ['/user', ['alice', 'bob']],
      [`${r}/issues?state=all`, ['alice', 'bob']],
      [`${r}/issues/1`, ['alice', 'bob']],
      [`${r}/issues/1/notes`, ['alice', 'bob']],
      [`${r}/issues/1/award_emoji`, ['alice']],
      [`${r}/issues?search=first`, ['alice']],
      [`${r}/merge_requests?state=all`, ['alice', 'bob']],
      [`${r}/merge_requests/1`, ['alice', 'bob']],
      [`${r}/merge_requests/1/changes`, ['alice']],
      [`${r}/merge_requests/1/commits`, ['alice']],
      [`${r}/merge_requests/1/notes`, ['alice']],
      [`${r}/labels`, ['alice', 'bob']],
      [`${r}/milestones?state=all`, ['alice', 'bob']],
      [`${r}/snippets`, ['alice']],
      [`${r}/protected_branches`, ['alice']],
      [`${r}/repository/branches`, ['alice', 'bob']],
      [`${r}/repository/tags`, ['alice', 'bob']],
      [`${r}/repository/commits?ref_name=feature`, ['alice', 'bob']],
      [`${r}/repository/tree?recursive=true`, ['alice']],
      [`${r}/repository/files/README.md?ref=master`, ['alice']],
      [`${r}/repository/compare?from=master&to=feature`, ['alice']],
      [`${r}/pipelines`, ['alice', 'bob']],
      [`${r}/jobs`, ['alice']],
      [`${r}/events`, ['alice', 'bob']],
      [`/projects/${lib.id}/repository/tree`, ['alice']],
      [`/projects/${lib.id}/repository/commits`, ['alice']],
      [`/projects/${fork.id}/repository/branches`, ['bob']],
      [`/projects/${storm.id}/issues?search=nothing-matches`, ['alice']],
      ['/todos', ['bob']],
      ['/namespaces', ['root', 'alice', 'bob']],
      ['/application/settings', ['root']],
    ];
    for (const [p, who] of paths) for (const w of who) reads.push({ path: p, token: tokens[w] });
  });
  after(async () => {
    await s?.close();
    await db?.drop();
  });

  it('makes a backup while a write storm runs, with every acknowledged write in it', async () => {
    let stop = false;
    const work = await workRepo([{ 'storm.txt': 'start\n' }]);
    const url = repoUrl(s, storm.path_with_namespace, tokens.alice);
    await gitOk(['pull', '-q', '--no-rebase', '--allow-unrelated-histories', url, 'master'], { cwd: work });
    let n = 0;
    let backupStarted = Infinity;
    const ack = (list: number[] | string[], value: number | string, at: number) => {
      if (at < backupStarted) (list as (number | string)[]).push(value);
    };
    const writer = async (kind: number) => {
      while (!stop) {
        const at = Date.now();
        n++;
        if (kind === 0) {
          const r = await s.post(`/projects/${storm.id}/issues`, { token: tokens.alice, json: { title: `storm ${n}` } });
          ack(acknowledged.issues, r.body.iid, at);
          const note = await s.post(`/projects/${storm.id}/issues/${r.body.iid}/notes`, { token: tokens.bob, json: { body: `note ${n}` } });
          if (note.status === 201) ack(acknowledged.notes, note.body.id, at);
        } else if (kind === 1) {
          const r = await s.post(`/projects/${storm.id}/repository/commits`, {
            token: tokens.alice,
            json: { branch: 'api', start_branch: 'master', commit_message: `api ${n}`, actions: [{ action: 'create', file_path: `api/${n}.txt`, content: `${n}\n` }] },
          });
          if (r.status === 201) ack(acknowledged.shas, r.body.id, at);
          const p = await s.post(`/projects/${storm.id}/pipeline`, { token: tokens.alice, query: { ref: 'master' } });
          if (p.status === 201) ack(acknowledged.pipelines, p.body.id, at);
        } else {
          const sha = await commit(work, { [`push/${n}.txt`]: `${n}\n` }, `push ${n}`);
          await gitOk(['push', '-q', url, `HEAD:refs/heads/pushed`], { cwd: work });
          ack(acknowledged.shas, sha, at);
        }
      }
    };
    const writers = [0, 1, 2].map((k) => writer(k));
    await new Promise((r) => setTimeout(r, 1000));
    backupStarted = Date.now();
    const made = await runTool('backup.js', ['--dir', path.join(dir, 'backups')], dataEnv(dir, db.target));
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(writers);
    expect(made.code, made.stderr).to.equal(0);
    archive = made.stdout.split('\n')[0];
    expect(fs.existsSync(archive)).to.equal(true);
    expect(path.basename(archive)).to.match(/^\d+_\d{4}_\d\d_\d\d_[\d.]+_wharf_backup\.tar\.gz$/);
    expect(acknowledged.issues.length + acknowledged.shas.length).to.be.above(3);
    expect(fs.readdirSync(path.join(dir, 'repos', '@wharf', 'tmp')).filter((n) => n.startsWith('backup.'))).to.deep.equal([]);
  });

  for (const onto of testEngine() === 'postgres' ? (['postgres', 'sqlite'] as const) : (['sqlite'] as const)) {
    it(`restores it into a fresh folder and ${onto === 'postgres' ? 'PostgreSQL' : 'SQLite'} database that answers as the source did`, async () => {
      const fresh = tempDir('wharf-restored-');
      const target = onto === 'postgres' ? await createTestDatabase(fresh) : { target: path.join(fresh, 'db', 'wharf.sqlite3'), drop: async () => undefined };
      const restored = await runTool('restore.js', [archive], dataEnv(fresh, target.target));
      expect(restored.code, restored.stderr).to.equal(0);
      expect(restored.stdout).to.include('restored the backup of');
      for (const gitdir of bareRepos(path.join(fresh, 'repos'))) execFileSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--no-progress'], { stdio: 'pipe' });
      if (onto === 'sqlite') {
        const check = openDb(target.target, 1);
        try {
          expect((await check.raw('PRAGMA integrity_check'))[0].integrity_check).to.equal('ok');
          expect(await check.raw('PRAGMA foreign_key_check')).to.deep.equal([]);
        } finally {
          await check.destroy();
        }
      }
      const copy = await bootServer({ ...dataEnv(fresh, target.target), WHARF_EXTERNAL_URL: EXTERNAL_URL });
      try {
        const [was, now] = [await answers(s), await answers(copy)];
        expect(reads.length).to.be.at.least(70);
        for (const [key, value] of was) expect(now.get(key), key).to.deep.equal(value);
        const issues = (await copy.get(`/projects/${storm.id}/issues`, { token: tokens.alice, query: { per_page: 100, state: 'all' } })).body.map((i: any) => i.iid);
        expect(issues).to.include.members(acknowledged.issues);
        const gitdir = copy.deps.repos.pathFor(storm.path_with_namespace);
        for (const sha of acknowledged.shas) execFileSync('git', ['--git-dir', gitdir, 'cat-file', '-e', `${sha}^{commit}`]);
        for (const id of acknowledged.pipelines) expect((await copy.get(`/projects/${storm.id}/pipelines/${id}`, { token: tokens.alice })).status).to.equal(200);
        for (const id of acknowledged.notes) expect((await copy.db('notes').where({ id }).first())?.id).to.equal(id);
        // The LFS object came along; a clone over the restored server works.
        const lfs = await copy.db('lfs_objects').first();
        expect(lfs).to.not.equal(undefined);
        const clone = path.join(tempDir(), 'c');
        await gitOk(['clone', '-q', repoUrl(copy, 'alice/rich', tokens.alice), clone]);
        expect(fs.readFileSync(path.join(clone, 'README.md'), 'utf8')).to.equal('# rich\n');
        // New writes carry on from the restored ids.
        const next = await copy.post(`/projects/${storm.id}/issues`, { token: tokens.alice, json: { title: 'after the restore' } });
        expect(next.status).to.equal(201);
      } finally {
        await copy.close();
        await target.drop();
      }
    });
  }
});
