// The per-process caches (tokens and their users, list totals) are never served
// stale: a revoked, expired or re-scoped token is refused, a blocked user is refused, a removed
// member no longer sees the private project, and a list's X-Total moves, on the very next
// request, in the process that made the change and in another process on the same database
// (the worker processes of one installation). The counts a project shows (forks, open
// issues) are columns kept by triggers; they follow every kind of change.
import fs from 'node:fs';
import net from 'node:net';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { ChildServer, tempDataDir, removeDataDir } from '../helpers/child_server.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/test_db.js';

const INVALID_REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' };
const INVALID_EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };

describe('Caches in one process', function () {
  this.timeout(60_000);
  let s: TestServer;

  beforeEach(async () => {
    s = await bootServer();
  });
  afterEach(async () => {
    await s?.close();
  });

  it('refuses a revoked impersonation token on the next request', async () => {
    const alice = await s.createUser('alice');
    const made = await s.post(`/users/${alice.user.id}/impersonation_tokens`, { json: { name: 'cached', scopes: ['api'] } });
    expect(made.status, made.text).to.equal(201);
    for (let i = 0; i < 2; i++) expect((await s.get('/user', { token: made.body.token })).status).to.equal(200);
    const revoked = await s.delete(`/users/${alice.user.id}/impersonation_tokens/${made.body.id}`);
    expect(revoked.status, revoked.text).to.equal(204);
    const after = await s.get('/user', { token: made.body.token });
    expect(after.status).to.equal(401);
    expect(after.body).to.deep.equal(INVALID_REVOKED);
  });

  it('follows expiry and scope changes made by any writer, and blocking', async () => {
    const bob = await s.createUser('bob');
    expect((await s.get('/projects', { token: bob.token })).status).to.equal(200);

    await s
      .db('personal_access_tokens')
      .where({ user_id: bob.user.id })
      .update({ scopes: JSON.stringify(['read_user']) });
    const narrowed = await s.get('/projects', { token: bob.token });
    expect(narrowed.status).to.equal(403);
    expect(narrowed.body.error).to.equal('insufficient_scope');
    expect((await s.get('/user', { token: bob.token })).status).to.equal(200);

    await s
      .db('personal_access_tokens')
      .where({ user_id: bob.user.id })
      .update({ scopes: JSON.stringify(['api']), expires_at: '2001-01-01' });
    const expired = await s.get('/user', { token: bob.token });
    expect(expired.status).to.equal(401);
    expect(expired.body).to.deep.equal(INVALID_EXPIRED);

    await s.db('personal_access_tokens').where({ user_id: bob.user.id }).update({ expires_at: null });
    expect((await s.get('/user', { token: bob.token })).status).to.equal(200);
    expect((await s.post(`/users/${bob.user.id}/block`)).status).to.equal(201);
    const blocked = await s.get('/user', { token: bob.token });
    expect(blocked.status).to.equal(403);
    expect(blocked.body).to.deep.equal({ message: '403 Forbidden - Your account has been blocked.' });
    expect((await s.post(`/users/${bob.user.id}/unblock`)).status).to.equal(201);
    expect((await s.get('/user', { token: bob.token })).status).to.equal(200);
  });

  it('shows a renamed user and an admin flag change on the next request', async () => {
    const carol = await s.createUser('carol');
    expect((await s.get('/user', { token: carol.token })).body.name).to.equal('Carol');
    expect((await s.put(`/users/${carol.user.id}`, { json: { name: 'Carol Renamed', admin: true } })).status).to.equal(200);
    const me = await s.get('/user', { token: carol.token });
    expect(me.body.name).to.equal('Carol Renamed');
    expect(me.body.is_admin).to.equal(true);
  });

  it('answers 404 to a removed member on the next request, and the list total follows', async () => {
    const dave = await s.createUser('dave');
    const project = await s.post('/projects', { json: { name: 'secret', visibility: 'private' } });
    expect((await s.get(`/projects/${project.body.id}`, { token: dave.token })).status).to.equal(404);
    expect((await s.post(`/projects/${project.body.id}/members`, { json: { user_id: dave.user.id, access_level: 30 } })).status).to.equal(201);
    const seen = await s.get(`/projects/${project.body.id}`, { token: dave.token });
    expect(seen.status).to.equal(200);
    expect(seen.body.permissions.project_access.access_level).to.equal(30);
    expect((await s.get('/projects', { token: dave.token })).headers.get('x-total')).to.equal('1');

    expect((await s.delete(`/projects/${project.body.id}/members/${dave.user.id}`)).status).to.equal(204);
    const gone = await s.get(`/projects/${project.body.id}`, { token: dave.token });
    expect(gone.status).to.equal(404);
    expect(gone.body).to.deep.equal(PROJECT_NOT_FOUND);
    expect((await s.get('/projects', { token: dave.token })).headers.get('x-total')).to.equal('0');
  });

  it('moves the issue list total with every change, whoever writes', async () => {
    const project = await s.post('/projects', { json: { name: 'tracker' } });
    const list = () => s.get(`/projects/${project.body.id}/issues`);
    expect((await list()).headers.get('x-total')).to.equal('0');
    const made = await s.post(`/projects/${project.body.id}/issues`, { json: { title: 'one' } });
    expect((await list()).headers.get('x-total')).to.equal('1');
    const opened = () => s.get(`/projects/${project.body.id}/issues`, { query: { state: 'opened' } });
    expect((await opened()).headers.get('x-total')).to.equal('1');
    await s.put(`/projects/${project.body.id}/issues/${made.body.iid}`, { json: { state_event: 'close' } });
    expect((await opened()).headers.get('x-total')).to.equal('0');
    await s.db('issues').where({ id: made.body.id }).update({ state: 'opened' }); // not through a service
    expect((await opened()).headers.get('x-total')).to.equal('1');
  });
});

describe('Rendered list pages kept per process', function () {
  this.timeout(60_000);
  let s: TestServer;

  before(async () => {
    s = await bootServer();
  });
  after(async () => {
    await s?.close();
  });

  const HEADERS = ['x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page', 'link', 'content-type'];
  const headersOf = (r: { headers: Headers }) => HEADERS.map((h) => [h, r.headers.get(h)]);

  it('answers a repeated page with the same bytes and headers, and shows every change on the next request', async () => {
    const henry = await s.createUser('henry');
    const project = await s.post('/projects', { json: { name: 'paged', visibility: 'public' } });
    const id = project.body.id;
    await s.post(`/projects/${id}/labels`, { json: { name: 'bug', color: '#ff0000' } });
    await s.post(`/projects/${id}/members`, { json: { user_id: henry.user.id, access_level: 30 } });
    for (const title of ['one', 'two', 'three']) {
      expect((await s.post(`/projects/${id}/issues`, { token: henry.token, json: { title, labels: 'bug' } })).status).to.equal(201);
    }
    const page = () => s.get(`/projects/${id}/issues`, { query: { per_page: 2 } });
    const first = await page();
    const again = await page();
    expect(again.text).to.equal(first.text);
    expect(headersOf(again)).to.deep.equal(headersOf(first));
    expect(first.headers.get('content-type')).to.equal('application/json');
    const last = await s.get(`/projects/${id}/issues`, { query: { per_page: 2, page: 2 } });
    const lastAgain = await s.get(`/projects/${id}/issues`, { query: { per_page: 2, page: 2 } });
    expect(lastAgain.headers.get('x-next-page')).to.equal('');
    expect(headersOf(lastAgain)).to.deep.equal(headersOf(last));

    // What the page shows of other tables: the author, the labels, the votes, the project path.
    expect((await s.put(`/users/${henry.user.id}`, { json: { name: 'Henry Renamed' } })).status).to.equal(200);
    expect((await page()).body[0].author.name).to.equal('Henry Renamed');
    const label = (await s.get(`/projects/${id}/labels`)).body[0];
    expect((await s.put(`/projects/${id}/labels`, { json: { name: label.name, new_name: 'defect' } })).status).to.equal(200);
    expect((await page()).body[0].labels).to.deep.equal(['defect']);
    const top = (await page()).body[0];
    expect((await s.post(`/projects/${id}/issues/${top.iid}/award_emoji`, { json: { name: 'thumbsup' } })).status).to.equal(201);
    expect((await page()).body[0].upvotes).to.equal(1);
    expect((await s.put(`/projects/${id}`, { json: { path: 'paged-moved' } })).status).to.equal(200);
    expect((await page()).body[0].web_url).to.match(/\/root\/paged-moved\/issues\/\d+$/);

    // Another user gets their own page.
    const other = await s.get(`/projects/${id}/issues`, { token: henry.token, query: { per_page: 2 } });
    expect(other.status).to.equal(200);
    expect(other.body.map((i: { id: number }) => i.id)).to.deep.equal((await page()).body.map((i: { id: number }) => i.id));
  });

  it('shows the avatars the gravatar_enabled setting asks for on the next request', async () => {
    const iris = await s.createUser('iris');
    const project = await s.post('/projects', { json: { name: 'avatars', visibility: 'public' } });
    expect((await s.post(`/projects/${project.body.id}/issues`, { token: iris.token, json: { title: 'drawn' } })).status).to.equal(201);
    const page = () => s.get(`/projects/${project.body.id}/issues`);
    expect((await page()).body[0].author.avatar_url).to.match(/^https:\/\/www\.gravatar\.com\/avatar\//);
    expect((await page()).body[0].author.avatar_url).to.match(/^https:\/\/www\.gravatar\.com\/avatar\//); // kept
    expect((await s.put('/application/settings', { json: { gravatar_enabled: false } })).status).to.equal(200);
    try {
      expect((await page()).body[0].author.avatar_url).to.equal(null);
    } finally {
      await s.put('/application/settings', { json: { gravatar_enabled: true } });
    }
  });

  it('keeps nothing with WHARF_LIST_CACHE_MB=0, and answers the same', async () => {
    const off = await bootServer({ WHARF_LIST_CACHE_MB: '0' });
    try {
      const project = await off.post('/projects', { json: { name: 'uncached' } });
      await off.post(`/projects/${project.body.id}/issues`, { json: { title: 'a' } });
      const a = await off.get(`/projects/${project.body.id}/issues`);
      const b = await off.get(`/projects/${project.body.id}/issues`);
      expect(b.text).to.equal(a.text);
      expect(b.headers.get('x-total')).to.equal('1');
      expect(b.headers.get('content-type')).to.equal('application/json');
    } finally {
      await off.close();
    }
  });
});

describe('Project counts kept as columns', function () {
  this.timeout(60_000);
  let s: TestServer;

  before(async () => {
    s = await bootServer();
  });
  after(async () => {
    await s?.close();
  });

  it('counts direct forks through forking, unlinking and deleting', async () => {
    const parent = await s.post('/projects', { json: { name: 'upstream' } });
    const group = await s.post('/groups', { json: { name: 'forkers', path: 'forkers' } });
    const fork = await s.post(`/projects/${parent.body.id}/fork`, { json: { namespace: group.body.id } });
    expect(fork.status, fork.text).to.equal(201);
    expect((await s.get(`/projects/${parent.body.id}`)).body.forks_count).to.equal(1);
    expect((await s.get(`/projects/${fork.body.id}`)).body.forked_from_project.forks_count).to.equal(1);
    const listed = (await s.get('/projects', { query: { search: 'upstream' } })).body as { id: number; forks_count: number }[];
    expect(listed.map((p) => [p.id, p.forks_count])).to.deep.equal([
      [fork.body.id, 0],
      [parent.body.id, 1],
    ]);
    expect((await s.delete(`/projects/${fork.body.id}`)).status).to.equal(202);
    expect((await s.get(`/projects/${parent.body.id}`)).body.forks_count).to.equal(0);
  });

  it('counts open, non-confidential issues through opening, closing, confidentiality and deletion', async () => {
    const project = await s.post('/projects', { json: { name: 'counted' } });
    const id = project.body.id;
    const count = async () => (await s.get(`/projects/${id}`)).body.open_issues_count;
    const a = await s.post(`/projects/${id}/issues`, { json: { title: 'a' } });
    const b = await s.post(`/projects/${id}/issues`, { json: { title: 'b', confidential: true } });
    expect(await count()).to.equal(1);
    await s.put(`/projects/${id}/issues/${b.body.iid}`, { json: { confidential: false } });
    expect(await count()).to.equal(2);
    await s.put(`/projects/${id}/issues/${a.body.iid}`, { json: { state_event: 'close' } });
    expect(await count()).to.equal(1);
    await s.put(`/projects/${id}/issues/${a.body.iid}`, { json: { state_event: 'reopen' } });
    expect(await count()).to.equal(2);
    expect((await s.delete(`/projects/${id}/issues/${b.body.iid}`)).status).to.equal(204);
    expect(await count()).to.equal(1);
    const listed = await s.get('/projects', { query: { search: 'counted' } });
    expect(listed.body[0].open_issues_count).to.equal(1);
  });

  it('keeps every cache trigger after all migrations (a table rebuilt by a later migration would lose them)', async () => {
    const tables = [
      'personal_access_tokens',
      'users',
      'members',
      'project_group_links',
      'namespace_ancestors',
      'namespaces',
      'projects',
      'users_star_projects',
      'custom_attributes',
      'project_statistics',
      'protected_branches',
      'issues',
      'merge_requests',
      'issue_assignees',
      'label_links',
      'labels',
      'milestones',
      'award_emoji',
    ];
    if (testEngine() === 'postgres') {
      // One statement-level trigger per table (migration 000026), one row-level per counter (000025).
      const rows = (await s.db.raw(`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal`)).rows as { tgname: string }[];
      const names = new Set(rows.map((r) => r.tgname));
      for (const table of tables) expect(names, `${table}_epoch`).to.include(`${table}_epoch`);
      for (const t of ['projects_forks_count', 'issues_open_count']) expect(names).to.include(t);
      return;
    }
    const names = new Set(((await s.db('sqlite_master').where({ type: 'trigger' }).select('name')) as { name: string }[]).map((r) => r.name));
    for (const table of tables) {
      for (const op of ['insert', 'update', 'delete']) expect(names, `${table}_epoch_${op}`).to.include(`${table}_epoch_${op}`);
    }
    for (const t of [
      'projects_forks_count_insert',
      'projects_forks_count_delete',
      'projects_forks_count_update',
      'issues_open_count_insert',
      'issues_open_count_delete',
      'issues_open_count_update',
    ])
      expect(names).to.include(t);
  });
});

describe('Caches across processes on one database', function () {
  this.timeout(120_000);
  let dir: string;
  let a: ChildServer;
  let b: ChildServer;
  let database: TestDatabase;

  before(async () => {
    dir = tempDataDir();
    database = await createTestDatabase(dir); // SQLite or PostgreSQL, as the run's engine
    a = await ChildServer.start(dir, { WHARF_DB: database.target }); // migrates and creates root first
    b = await ChildServer.start(dir, { WHARF_DB: database.target });
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    await removeDataDir(dir);
  });

  async function userWithToken(username: string): Promise<{ id: number; token: string; tokenId: number }> {
    const user = await a.request('POST', '/users', {
      json: { username, email: `${username}@example.com`, name: username, password: 'correct-horse-battery', skip_confirmation: true },
    });
    expect(user.status, user.text).to.equal(201);
    const token = await a.request('POST', `/users/${user.body.id}/impersonation_tokens`, { json: { name: 'x', scopes: ['api'] } });
    expect(token.status, token.text).to.equal(201);
    return { id: user.body.id, token: token.body.token, tokenId: token.body.id };
  }

  it('refuses in one process a token revoked through the other', async () => {
    const erin = await userWithToken('erin');
    for (const server of [a, b, b]) expect((await server.request('GET', '/user', { token: erin.token })).status).to.equal(200);
    const revoked = await a.request('DELETE', `/users/${erin.id}/impersonation_tokens/${erin.tokenId}`);
    expect(revoked.status, revoked.text).to.equal(204);
    const onB = await b.request('GET', '/user', { token: erin.token });
    expect(onB.status).to.equal(401);
    expect(onB.body).to.deep.equal(INVALID_REVOKED);
  });

  it('refuses in one process a user blocked through the other', async () => {
    const frank = await userWithToken('frank');
    expect((await b.request('GET', '/user', { token: frank.token })).status).to.equal(200);
    expect((await a.request('POST', `/users/${frank.id}/block`)).status).to.equal(201);
    expect((await b.request('GET', '/user', { token: frank.token })).status).to.equal(403);
  });

  it('answers 404 in one process to a member removed through the other, and moves the totals', async () => {
    const gina = await userWithToken('gina');
    const project = await a.request('POST', '/projects', { json: { name: 'shared-secret', visibility: 'private' } });
    expect((await a.request('POST', `/projects/${project.body.id}/members`, { json: { user_id: gina.id, access_level: 20 } })).status).to.equal(201);
    expect((await b.request('GET', `/projects/${project.body.id}`, { token: gina.token })).status).to.equal(200);
    expect((await b.request('GET', '/projects', { token: gina.token })).headers.get('x-total')).to.equal('1');
    expect((await b.request('GET', `/projects/${project.body.id}/issues`, { token: gina.token })).headers.get('x-total')).to.equal('0');

    expect((await a.request('POST', `/projects/${project.body.id}/issues`, { json: { title: 'seen elsewhere' } })).status).to.equal(201);
    expect((await b.request('GET', `/projects/${project.body.id}/issues`, { token: gina.token })).headers.get('x-total')).to.equal('1');

    expect((await a.request('DELETE', `/projects/${project.body.id}/members/${gina.id}`)).status).to.equal(204);
    const gone = await b.request('GET', `/projects/${project.body.id}`, { token: gina.token });
    expect(gone.status).to.equal(404);
    expect(gone.body).to.deep.equal(PROJECT_NOT_FOUND);
    expect((await b.request('GET', '/projects', { token: gina.token })).headers.get('x-total')).to.equal('0');
  });

  it('shows in one process a branch moved through the other', async () => {
    const project = await a.request('POST', '/projects', { json: { name: 'moving-branch' } });
    expect(project.status, project.text).to.equal(201);
    const first = await a.request('POST', `/projects/${project.body.id}/repository/commits`, {
      json: { branch: 'master', commit_message: 'first', actions: [{ action: 'create', file_path: 'README.md', content: 'first' }] },
    });
    expect(first.status, first.text).to.equal(201);
    const before = await b.request('GET', `/projects/${project.body.id}/repository/branches/master`);
    expect(before.status, before.text).to.equal(200);
    const readme = await b.request('GET', `/projects/${project.body.id}/repository/files/README.md/raw?ref=master`);
    expect(readme.status).to.equal(200);
    const committed = await a.request('POST', `/projects/${project.body.id}/repository/commits`, {
      json: { branch: 'master', commit_message: 'moved elsewhere', actions: [{ action: 'update', file_path: 'README.md', content: 'changed in a' }] },
    });
    expect(committed.status, committed.text).to.equal(201);
    const after = await b.request('GET', `/projects/${project.body.id}/repository/branches/master`);
    expect(after.body.commit.id).to.equal(committed.body.id);
    expect(after.body.commit.id).to.not.equal(before.body.commit.id);
    const changed = await b.request('GET', `/projects/${project.body.id}/repository/files/README.md/raw?ref=master`);
    expect(changed.text).to.equal('changed in a');
  });
});

describe('Worker processes (WHARF_WORKERS)', function () {
  this.timeout(120_000);

  it('serves the port from two workers and stops them all on SIGTERM', async () => {
    const dir = tempDataDir();
    const server = await ChildServer.start(dir, { WHARF_WORKERS: '2' });
    try {
      const made = await server.request('POST', '/projects', { json: { name: 'clustered' } });
      expect(made.status, made.text).to.equal(201);
      // Connections go to the workers in turn: every answer agrees.
      for (let i = 0; i < 10; i++) {
        const r = await server.request('GET', `/projects/${made.body.id}`);
        expect(r.status).to.equal(200);
        expect(r.body.name).to.equal('clustered');
      }
      const workers = childrenOf(server.child.pid!);
      expect(workers).to.have.length(2);
      // glibc's arenas: two per worker unless the administrator chose (src/workers.ts).
      for (const pid of workers) {
        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        expect(environ, `worker ${pid}`).to.include('MALLOC_ARENA_MAX=2');
      }
      await server.stop();
      for (const pid of workers) expect(alive(pid), `worker ${pid}`).to.equal(false);
    } finally {
      await server.kill();
      await removeDataDir(dir);
    }
  });
});

describe('Worker processes that cannot start', function () {
  this.timeout(120_000);

  it('stop all, with status 1, when a worker cannot listen (the SSH port is taken), instead of restarting it', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const dir = tempDataDir();
    let server: ChildServer | undefined;
    try {
      const port = String((taken.address() as net.AddressInfo).port);
      const exited = new Promise<number | null>((resolve) => {
        ChildServer.start(dir, { WHARF_WORKERS: '2', WHARF_SSH_PORT: port })
          .then((started) => {
            server = started;
            if (started.child.exitCode !== null) resolve(started.child.exitCode);
            else started.child.once('exit', (code) => resolve(code));
          })
          .catch(() => resolve(1)); // exited before answering readiness (ChildServer saw it exit)
      });
      const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 90_000))]);
      expect(code).to.equal(1);
    } finally {
      await server?.kill();
      taken.close();
      await removeDataDir(dir);
    }
  });
});

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
