// Moving up (`npm run db:copy`, src/store/copy.ts): a SQLite store populated through the API
// (users, groups, projects and their repositories, a fork, labels, milestones, issues, notes,
// award emoji, merge requests merged and open, events, todos, members, protected branches)
// is copied into an empty PostgreSQL database by the real command, and a server on the copy
// answers every read exactly as the server on SQLite did: bodies, totals, pages, order. New
// writes then continue the ids and iids; a second copy into the filled database is refused.
// Runs in the PostgreSQL run of the suite (WHARF_TEST_DB=postgres).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/test_db.js';
import { commitFiles, createBranch, created, openMergeRequest } from '../helpers/projects.js';
import { tempDir } from '../transport/git_client.js';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXTERNAL_URL = 'http://wharf.example';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function dbCopy(from: string, to: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(DIST, 'src/db_copy.js'), '--from', from, '--to', to], (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Row counts per table from the command's table. */
function countsOf(stdout: string): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const line of stdout.split('\n')) {
    const m = /^(\w+)\s+(\d+)\s+(\d+)$/.exec(line);
    if (m) out[m[1]] = [Number(m[2]), Number(m[3])];
  }
  return out;
}

describe('db:copy: a SQLite store copied into PostgreSQL answers the same', function () {
  this.timeout(180_000);
  let dir: string;
  let sqliteFile: string;
  let reposDir: string;
  let target: TestDatabase;
  let s: TestServer;
  let copy: Run;
  const reads: { path: string; token: string }[] = [];
  let answers: Map<string, unknown>;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  async function snapshot(server: TestServer): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for (const { path: p, token } of reads) {
      const r = await server.get(p, { token });
      const link = (r.headers.get('link') ?? '').replaceAll(server.url, 'ORIGIN');
      const pages = ['x-total', 'x-total-pages', 'x-next-page'].map((h) => r.headers.get(h));
      out.set(`${token.slice(0, 6)} ${p}`, { status: r.status, body: r.body, link, pages });
    }
    return out;
  }

  before(async function () {
    if (testEngine() !== 'postgres') this.skip();
    dir = tempDir('wharf-copy-');
    sqliteFile = path.join(dir, 'db', 'wharf.sqlite3');
    reposDir = path.join(dir, 'repos');
    s = await bootServer({ WHARF_DB: sqliteFile, WHARF_REPOS: reposDir, WHARF_EXTERNAL_URL: EXTERNAL_URL });
    const ok = <T = any>(r: { status: number; text: string; body: T }, status = 201) => {
      expect(r.status, r.text).to.equal(status);
      return r.body;
    };
    const alice = await s.createUser('alice');
    const bob = await s.createUser('bob');
    const carol = await s.createUser('carol', { external: true });
    Object.assign(tokens, { root: ROOT_TOKEN, alice: alice.token, bob: bob.token, carol: carol.token });

    const group = ok(await s.post('/groups', { token: alice.token, json: { name: 'Platform', path: 'platform', visibility: 'public' } }));
    const sub = ok(await s.post('/groups', { token: alice.token, json: { name: 'Tools', path: 'tools', parent_id: group.id } }));
    ok(await s.post(`/groups/${group.id}/members`, { token: alice.token, json: { user_id: bob.user.id, access_level: 30 } }));
    const app = ok(await s.post('/projects', { token: alice.token, json: { name: 'App', namespace_id: group.id, visibility: 'public', description: 'The App' } }));
    const lib = ok(await s.post('/projects', { token: alice.token, json: { name: 'lib', namespace_id: sub.id, visibility: 'private' } }));
    const mine = ok(await s.post('/projects', { token: bob.token, json: { name: 'Zeta notes', visibility: 'internal', tag_list: ['b', 'a'] } }));
    ok(await s.post(`/projects/${lib.id}/members`, { token: alice.token, json: { user_id: carol.user.id, access_level: 20, expires_at: '2099-01-01' } }));
    ok(await s.post(`/projects/${mine.id}/star`, { token: alice.token }));
    ok(await s.put(`/projects/${app.id}/custom_attributes/tier`, { json: { value: 'gold' } }), 200);
    Object.assign(ids, { app: app.id, lib: lib.id, mine: mine.id, group: group.id, sub: sub.id, bob: bob.user.id });

    // Repositories: commits through the API, a branch, a protected branch, a fork.
    await commitFiles(s, app.id, 'master', [{ action: 'create', file_path: 'README.md', content: '# App\n' }], { token: alice.token, message: 'first' });
    await commitFiles(s, app.id, 'master', [{ action: 'create', file_path: 'src/main.c', content: 'int main() { return 0; }\n' }], { token: alice.token, message: 'code' });
    await createBranch(s, app.id, 'feature', 'master', bob.token);
    await commitFiles(s, app.id, 'feature', [{ action: 'update', file_path: 'README.md', content: '# App\nfixes #1\n' }], {
      token: bob.token,
      message: 'Fix the crash, closes #1',
    });
    await createBranch(s, app.id, 'topic', 'master', bob.token);
    await commitFiles(s, app.id, 'topic', [{ action: 'create', file_path: 'topic.txt', content: 'topic\n' }], { token: bob.token, message: 'topic work' });
    ok(await s.post(`/projects/${app.id}/protected_branches`, { token: alice.token, json: { name: 'release-*', push_access_level: 40 } }));
    await commitFiles(s, lib.id, 'master', [{ action: 'create', file_path: 'lib.txt', content: 'lib\n' }], { token: alice.token });
    const fork = ok(await s.post(`/projects/${app.id}/fork`, { token: bob.token }));
    ids.fork = fork.id;

    // Labels, milestones, issues (labels, assignees, confidential, mentions), notes, awards.
    for (const [name, color] of [
      ['bug', '#ff0000'],
      ['Feature', '#00ff00'],
      ['docs', '#0000ff'],
    ]) {
      ok(await s.post(`/projects/${app.id}/labels`, { token: alice.token, json: { name, color } }));
    }
    const v1 = ok(await s.post(`/projects/${app.id}/milestones`, { token: alice.token, json: { title: 'v1', due_date: '2030-01-01' } }));
    ok(await s.post(`/projects/${app.id}/milestones`, { token: alice.token, json: { title: 'v0' } }));
    const crash = ok(
      await s.post(`/projects/${app.id}/issues`, {
        token: alice.token,
        json: {
          title: 'Crash on start',
          description: 'It crashes, @bob please look',
          labels: 'bug,Feature',
          assignee_ids: [bob.user.id],
          milestone_id: v1.id,
          due_date: '2030-02-01',
        },
      }),
    );
    ok(await s.post(`/projects/${app.id}/issues`, { token: bob.token, json: { title: 'Secret hole', confidential: true, labels: 'bug' } }));
    for (let i = 0; i < 23; i++)
      ok(
        await s.post(`/projects/${app.id}/issues`, {
          token: i % 2 ? bob.token : alice.token,
          json: { title: `Issue ${i} ${i % 3 ? 'parser' : 'LOGIN'} trouble`, labels: i % 4 ? '' : 'docs' },
        }),
      );
    ok(await s.post(`/projects/${app.id}/issues/${crash.iid}/notes`, { token: bob.token, json: { body: 'Looking into it, @alice' } }));
    ok(await s.post(`/projects/${app.id}/issues/${crash.iid}/award_emoji`, { token: bob.token, json: { name: 'thumbsup' } }));
    ok(await s.put(`/projects/${app.id}/issues/3`, { token: alice.token, json: { state_event: 'close' } }), 200);
    ok(await s.post(`/projects/${app.id}/issues/4/time_estimate`, { token: alice.token, json: { duration: '1w 2d' } }), 200);
    ok(await s.post(`/projects/${lib.id}/issues`, { token: alice.token, json: { title: 'Private lib issue' } }));

    // Merge requests: one merged (closing #1), one open with a note and a label.
    const mr = await openMergeRequest(s, app.id, { source_branch: 'feature', target_branch: 'master', title: 'Fix the crash', description: 'Closes #1', labels: 'bug' }, bob.token);
    ok(await s.post(`/projects/${app.id}/merge_requests/${mr.iid}/notes`, { token: alice.token, json: { body: 'LGTM' } }));
    ok(await s.put(`/projects/${app.id}/merge_requests/${mr.iid}/merge`, { token: alice.token }), 200);
    const open = await openMergeRequest(s, app.id, { source_branch: 'topic', target_branch: 'master', title: 'WIP: topic', assignee_id: ids.bob, milestone_id: v1.id }, bob.token);
    ok(await s.post(`/projects/${app.id}/merge_requests/${open.iid}/award_emoji`, { token: alice.token, json: { name: 'thumbsdown' } }));
    ok(await s.post(`/projects/${app.id}/merge_requests/${open.iid}/todo`, { token: alice.token }));

    const a = `/projects/${app.id}`;
    const paths: [string, string[]][] = [
      ['/projects', ['root', 'alice', 'bob', 'carol']],
      ['/projects?order_by=name&sort=asc&simple=true', ['root', 'bob']],
      ['/projects?search=app&statistics=true', ['root']],
      ['/projects?starred=true', ['alice']],
      ['/projects?per_page=2&page=2', ['root']],
      [a, ['root', 'alice', 'carol']],
      [`${a}?statistics=true&with_custom_attributes=true`, ['root']],
      [`/projects/${lib.id}`, ['root', 'bob', 'carol']],
      [`/projects/${fork.id}`, ['bob']],
      [`${a}/forks`, ['root']],
      [`${a}/users`, ['alice']],
      [`${a}/members`, ['alice']],
      [`/projects/${lib.id}/members`, ['alice']],
      ['/groups', ['root', 'alice', 'carol']],
      [`/groups/${group.id}`, ['alice']],
      [`/groups/${group.id}/projects`, ['bob']],
      [`/groups/${group.id}/members`, ['alice']],
      ['/namespaces', ['root', 'bob']],
      ['/users', ['root', 'bob']],
      ['/users?search=ali', ['root']],
      [`/users/${bob.user.id}`, ['root', 'alice']],
      [`/users/${bob.user.id}/projects`, ['alice']],
      ['/user', ['bob']],
      [`${a}/issues`, ['root', 'alice', 'bob', 'carol']],
      [`${a}/issues?per_page=5&page=3&order_by=updated_at&sort=asc`, ['alice']],
      [`${a}/issues?labels=bug&state=all`, ['bob']],
      [`${a}/issues?search=login`, ['alice']],
      [`${a}/issues?search=PARSER trouble`, ['alice']],
      [`${a}/issues?milestone=v1&state=all`, ['alice']],
      [`${a}/issues?my_reaction_emoji=thumbsup&state=all`, ['bob']],
      [`${a}/issues/1`, ['alice']],
      [`${a}/issues/1/notes`, ['alice']],
      [`${a}/issues/1/award_emoji`, ['alice']],
      [`${a}/issues/4/time_stats`, ['alice']],
      ['/issues?scope=all&per_page=100', ['root', 'bob']],
      [`/groups/${group.id}/issues`, ['alice']],
      [`${a}/merge_requests?state=all`, ['root', 'bob']],
      [`${a}/merge_requests/${mr.iid}`, ['alice']],
      [`${a}/merge_requests/${mr.iid}/changes`, ['alice']],
      [`${a}/merge_requests/${mr.iid}/commits`, ['alice']],
      [`${a}/merge_requests/${mr.iid}/notes`, ['alice']],
      [`${a}/merge_requests/${open.iid}`, ['alice']],
      [`${a}/merge_requests/${open.iid}/participants`, ['alice']],
      ['/merge_requests?scope=all&state=all', ['bob']],
      [`${a}/labels`, ['bob']],
      [`${a}/milestones`, ['bob']],
      [`${a}/milestones/${v1.id}/issues`, ['bob']],
      ['/events', ['alice', 'bob']],
      [`${a}/events?per_page=100`, ['root', 'carol']],
      [`/users/${bob.user.id}/events`, ['alice']],
      ['/todos', ['alice', 'bob']],
      ['/todos?state=done', ['alice', 'bob']],
      [`${a}/protected_branches`, ['alice']],
      [`${a}/repository/branches`, ['alice']],
      [`${a}/repository/tree?recursive=true`, ['bob']],
      [`${a}/repository/commits`, ['bob']],
      [`${a}/repository/contributors`, ['bob']],
      [`/users/${bob.user.id}/custom_attributes`, ['root']],
      [`${a}/custom_attributes`, ['root']],
    ];
    for (const [p, who] of paths) for (const name of who) reads.push({ path: p, token: tokens[name] });
    answers = await snapshot(s);
    const failed = [...answers].filter(([, v]) => (v as { status: number }).status !== 200).map(([k]) => k);
    expect(failed, 'every read answers 200 before the copy').to.deep.equal([]);
    await s.close();

    target = await createTestDatabase(dir);
    copy = await dbCopy(sqliteFile, target.target);
  });

  after(async () => {
    await s?.close().catch(() => undefined);
    await target?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every row, shows the counts of both sides, and they match', () => {
    expect(copy.code, copy.stderr).to.equal(0);
    expect(copy.stdout).to.match(/every count matches/);
    const counts = countsOf(copy.stdout);
    for (const table of ['users', 'projects', 'issues', 'merge_requests', 'notes', 'events', 'todos', 'labels', 'milestones', 'award_emoji', 'members']) {
      expect(counts[table], table).to.not.equal(undefined);
      expect(counts[table][0], table).to.be.above(0);
      expect(counts[table][1], table).to.equal(counts[table][0]);
    }
    expect(counts.issues[0]).to.equal(26);
    expect(counts.merge_requests[0]).to.equal(2);
    expect(counts.users[0]).to.equal(4);
    // The progress went to stderr, ending at every row.
    const total = Object.values(counts).reduce((n, [x]) => n + x, 0);
    expect(copy.stderr).to.include(`${total}/${total} rows`);
  });

  it('a server on the copy answers every read as the server on SQLite did', async () => {
    s = await bootServer({ WHARF_DB: target.target, WHARF_REPOS: reposDir, WHARF_EXTERNAL_URL: EXTERNAL_URL });
    const after = await snapshot(s);
    for (const [key, value] of answers) expect(after.get(key), key).to.deep.equal(value);
  });

  it('continues the ids and iids after the copy', async () => {
    const issue = created(await s.post(`/projects/${ids.app}/issues`, { token: tokens.alice, json: { title: 'after the move' } }));
    expect(issue.iid).to.equal(26);
    const maxId = await s.db('issues').max({ n: 'id' }).first();
    expect(issue.id).to.equal(Number(maxId?.n));
    expect(issue.id).to.be.above(26);
    const user = created(await s.post('/users', { json: { username: 'dave', email: 'dave@example.com', name: 'Dave', password: 'secret-password-1' } }));
    expect(user.id).to.equal(5);
    const project = created(await s.post('/projects', { token: tokens.bob, json: { name: 'after' } }));
    expect(project.id).to.be.above(ids.fork);
  });

  it('refuses a target that is not empty, and leaves it as it was', async () => {
    const count = async () => Number((await s.db('issues').count({ n: '*' }).first())?.n);
    const issues = await count();
    const again = await dbCopy(sqliteFile, target.target);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.match(/^db:copy: the target database is not empty \(rows in [a-z_, ]*users[a-z_, ]*\): copy into a new, empty database\n$/);
    expect(await count()).to.equal(issues);
  });

  it('answers a clear usage error for missing arguments or a missing source', async () => {
    const usage = await new Promise<Run>((resolve) =>
      execFile(process.execPath, [path.join(DIST, 'src/db_copy.js'), '--from', sqliteFile], (err, stdout, stderr) =>
        resolve({ code: (err as { code?: number } | null)?.code ?? 0, stdout, stderr }),
      ),
    );
    expect([usage.code, usage.stderr]).to.deep.equal([2, 'usage: npm run db:copy -- --from <sqlite file> --to <postgres:// URL>\n']);
    const none = await dbCopy(path.join(dir, 'nothing.sqlite3'), target.target);
    expect(none.code).to.equal(1);
    expect(none.stderr).to.equal(`db:copy: ${path.join(dir, 'nothing.sqlite3')} does not exist\n`);
    const wrong = await dbCopy(sqliteFile, sqliteFile);
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.equal('db:copy: --to must be a postgres:// URL\n');
  });
});
