// Several processes, one database: two real Wharf processes (`node dist/src/main.js`) on one
// PostgreSQL database and one repository folder, started at the same moment on an empty
// database, serve the same data. A write through one is read through the other at once (API
// rows, API commits, git pushes); concurrent writes through both lose nothing: iids stay
// unique and dense, a name is taken once, branch moves are compare-and-swap (every commit
// answered 201 is in the history), and a daily job's pass is claimed by one process.
// Runs in the PostgreSQL run of the suite (WHARF_TEST_DB=postgres).
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT_TOKEN } from '../helpers/server.js';
import { freePort } from '../helpers/free_port.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/test_db.js';
import { commit, gitOk, tempDir } from '../transport/git_client.js';
import { git as bareGit } from '../helpers/bare_git.js';
import { openDb, type Db } from '../../src/store/db.js';
import { scheduleCrons } from '../../src/jobs/scheduler.js';
import '../../src/jobs/kinds.js';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXTERNAL_URL = 'http://wharf.example';

interface Reply {
  status: number;
  body: any;
  text: string;
}

class Wharf {
  private child!: ChildProcess;
  private log = '';
  url = '';

  async start(env: Record<string, string>): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [path.join(DIST, 'src/main.js')], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        WHARF_SSH_PORT: '0',
        WHARF_LOG_LEVEL: 'warn',
        WHARF_ROOT_TOKEN: ROOT_TOKEN,
        WHARF_EXTERNAL_URL: EXTERNAL_URL,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => (this.log += d));
    this.child.stderr!.on('data', (d) => (this.log += d));
  }

  async ready(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (this.child.exitCode !== null) throw new Error(`Wharf exited with ${this.child.exitCode}:\n${this.log}`);
      const ok = await fetch(`${this.url}/-/readiness`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`Wharf did not become ready:\n${this.log}`);
  }

  async request(method: string, p: string, opts: { token?: string; json?: unknown } = {}): Promise<Reply> {
    const headers: Record<string, string> = { 'PRIVATE-TOKEN': opts.token ?? ROOT_TOKEN };
    if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.url}/api/v4${p}`, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
    const text = await res.text();
    return { status: res.status, text, body: res.headers.get('content-type') === 'application/json' && text ? JSON.parse(text) : text };
  }

  get(p: string, token?: string) {
    return this.request('GET', p, { token });
  }
  post(p: string, json: unknown, token?: string) {
    return this.request('POST', p, { json, token });
  }
  put(p: string, json: unknown, token?: string) {
    return this.request('PUT', p, { json, token });
  }

  repoUrl(fullPath: string, token = ROOT_TOKEN): string {
    return `${this.url.replace('//', `//root:${token}@`)}/${fullPath}.git`;
  }

  /** Problems the process logged (warnings and errors), for the assertion that there were none. */
  get logged(): string {
    return this.log;
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

function ok(r: Reply, status = 201): any {
  expect(r.status, r.text).to.equal(status);
  return r.body;
}

describe('Two Wharf processes on one PostgreSQL database', function () {
  this.timeout(180_000);
  let dir: string;
  let database: TestDatabase;
  let reposDir: string;
  const a = new Wharf();
  const b = new Wharf();
  let project: any;

  before(async function () {
    if (testEngine() !== 'postgres') this.skip();
    dir = tempDir('wharf-two-');
    reposDir = path.join(dir, 'repos');
    database = await createTestDatabase(dir);
    // Both start together on the empty database: one creates root and its token, both serve.
    // No SSH: two servers cannot both listen on its default port.
    const env = { WHARF_DB: database.target, WHARF_REPOS: reposDir, WHARF_SSH_PORT: '0' };
    await Promise.all([a.start(env), b.start(env)]);
    await Promise.all([a.ready(), b.ready()]);
  });

  after(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await database?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('start together on an empty database: one root, one root token, both answer', async () => {
    const users = ok(await a.get('/users'), 200);
    expect(users.map((u: any) => u.username)).to.deep.equal(['root']);
    expect(ok(await b.get('/user'), 200).id).to.equal(1);
    const db = openDb(database.target);
    try {
      expect(Number((await db('personal_access_tokens').count({ n: '*' }).first())?.n)).to.equal(1);
    } finally {
      await db.destroy();
    }
  });

  it('a write through one is read through the other at once', async () => {
    const user = ok(await a.post('/users', { username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'secret-password-1' }));
    expect(ok(await b.get(`/users/${user.id}`), 200)).to.deep.equal(ok(await a.get(`/users/${user.id}`), 200));
    project = ok(await b.post('/projects', { name: 'Shared', visibility: 'public' }));
    expect(ok(await a.get(`/projects/${project.id}`), 200).path_with_namespace).to.equal('root/shared');
    const issue = ok(await a.post(`/projects/${project.id}/issues`, { title: 'Seen by both', labels: 'x' }));
    expect(ok(await b.get(`/projects/${project.id}/issues/${issue.iid}`), 200)).to.deep.equal(issue);
    ok(await b.put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: 'close' }), 200);
    expect(ok(await a.get(`/projects/${project.id}/issues/${issue.iid}`), 200).state).to.equal('closed');
    // Repositories: an API commit through one, read through the other.
    ok(await a.post(`/projects/${project.id}/repository/files/README.md`, { branch: 'master', content: '# shared\n', commit_message: 'first' }));
    const raw = await b.request('GET', `/projects/${project.id}/repository/files/README.md/raw?ref=master`);
    expect(raw.status).to.equal(200);
    expect(raw.text).to.equal('# shared\n');
    // And git: a push into one, a clone from the other.
    const work = path.join(dir, 'work');
    await gitOk(['clone', '-q', a.repoUrl('root/shared'), work]);
    const pushed = await commit(work, { 'pushed.txt': 'pushed through A\n' }, 'pushed through A');
    await gitOk(['push', '-q', 'origin', 'master'], { cwd: work });
    const branch = ok(await b.get(`/projects/${project.id}/repository/branches/master`), 200);
    expect(branch.commit.id).to.equal(pushed);
    const clone = path.join(dir, 'clone');
    await gitOk(['clone', '-q', b.repoUrl('root/shared'), clone]);
    expect(fs.readFileSync(path.join(clone, 'pushed.txt'), 'utf8')).to.equal('pushed through A\n');
    // The push event recorded by A is in B's list.
    const events = ok(await b.get(`/projects/${project.id}/events?action=pushed`), 200);
    expect(events.map((e: any) => e.push_data.commit_to)).to.include(pushed);
  });

  it('concurrent issues through both get unique, dense iids; nothing is lost', async () => {
    const p = ok(await a.post('/projects', { name: 'Busy' }));
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).post(`/projects/${p.id}/issues`, { title: `issue ${i}`, labels: `l${i % 3}` })));
    const iids = replies.map((r) => ok(r).iid).sort((x: number, y: number) => x - y);
    expect(iids).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    const list = await b.request('GET', `/projects/${p.id}/issues?per_page=100`);
    expect(list.body.map((i: any) => i.title).sort()).to.deep.equal(replies.map((r) => r.body.title).sort());
    // Labels were created on the fly by both: one row per name.
    expect(ok(await a.get(`/projects/${p.id}/labels`), 200).map((l: any) => l.name)).to.deep.equal(['l0', 'l1', 'l2']);
    // Comments on one issue from both: all kept, counted once each.
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).post(`/projects/${p.id}/issues/1/notes`, { body: `note ${i}` }).then((r) => ok(r))));
    expect(ok(await a.get(`/projects/${p.id}/issues/1`), 200).user_notes_count).to.equal(20);
  });

  it('a name raced through both is taken once: one 201, the others a GitLab error', async () => {
    const p = ok(await a.post('/projects', { name: 'Names' }));
    const labels = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).post(`/projects/${p.id}/labels`, { name: 'same', color: '#ff0000' })));
    expect(labels.filter((r) => r.status === 201)).to.have.length(1);
    // GitLab's two answers: the lookup before the create finds it (409), or the create's own
    // uniqueness validation does, when both looked before either wrote (400).
    const taken = [
      [409, { message: 'Label already exists' }],
      [400, { message: { title: ['has already been taken'] } }],
    ];
    for (const r of labels.filter((x) => x.status !== 201)) expect(taken, r.text).to.deep.include([r.status, r.body]);
    const projects = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).post('/projects', { name: 'Twin', path: 'twin' })));
    expect(projects.filter((r) => r.status === 201)).to.have.length(1);
    for (const r of projects.filter((x) => x.status !== 201)) expect(r.status, r.text).to.equal(400);
  });

  it('concurrent commits to one branch through both: every commit answered 201 is in the history', async () => {
    const p = ok(await a.post('/projects', { name: 'Commits' }));
    ok(await a.post(`/projects/${p.id}/repository/files/base.txt`, { branch: 'master', content: 'base\n', commit_message: 'base' }));
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 ? a : b).post(`/projects/${p.id}/repository/files/f${i}.txt`, { branch: 'master', content: `${i}\n`, commit_message: `file ${i}` }),
      ),
    );
    // A write whose branch moved meanwhile is refused whole (400), never half-made.
    for (const r of replies) expect([201, 400], r.text).to.include(r.status);
    const made = replies.filter((r) => r.status === 201).map((r) => r.body.file_path);
    expect(made.length).to.be.above(0);
    const bare = path.join(reposDir, `${p.path_with_namespace}.git`);
    const files = bareGit(bare, ['ls-tree', '--name-only', 'master']).trim().split('\n').sort();
    expect(files).to.deep.equal(['base.txt', ...made].sort());
    expect(Number(bareGit(bare, ['rev-list', '--count', 'master']).trim())).to.equal(made.length + 1);
    bareGit(bare, ['fsck', '--no-dangling']);
  });

  it('a periodic job is queued once per period, whichever of the two processes schedules it', async () => {
    const day = 24 * 60 * 60 * 1000;
    const one: Db = openDb(database.target);
    const two: Db = openDb(database.target);
    try {
      const at = new Date('2030-01-01T03:00:00Z');
      const crons = (await Promise.all(Array.from({ length: 10 }, (_, i) => scheduleCrons(i % 2 ? one : two, at)))).reduce((a, b) => a + b, 0);
      const queued = async () => Number(((await one('jobs').where('unique_key', 'like', 'cron:%').count({ n: '*' }).first()) as { n: number | string }).n);
      const perDay = await queued();
      expect(perDay, 'each periodic job is queued once for the day').to.be.greaterThan(0);
      expect(crons).to.equal(perDay);
      // An hour later (the same period of each): nothing new; a day later: one run of each again.
      expect(await scheduleCrons(one, new Date(at.getTime() + 3600_000))).to.equal(0);
      const next = await Promise.all([scheduleCrons(one, new Date(at.getTime() + day)), scheduleCrons(two, new Date(at.getTime() + day + 1000))]);
      expect(next[0] + next[1]).to.equal(perDay);
    } finally {
      await one.destroy();
      await two.destroy();
    }
  });

  it('logged no error in either process', () => {
    expect(a.logged + b.logged).to.not.match(/"level":(50|60)/);
  });
});
