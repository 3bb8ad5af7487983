// Contributors over HTTP: grouping, GitLab's orders, real line counts checked against
// `git log --numstat`, pagination links with the defaults, caching by head commit.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { git, WorkTree } from '../helpers/compare_git.js';
import { insertMember } from '../../src/services/members/members.js';

const ZOE = { name: 'zoe', email: 'Zoe@example.com' };
const BOB = { name: 'Bob', email: 'bob@example.com' };

describe('GET /projects/:id/repository/contributors', () => {
  let s: TestServer;
  let pid: number;
  let bare: string;
  let work: WorkTree;
  const url = () => `/projects/${pid}/repository/contributors`;

  before(async function () {
    this.timeout(60000);
    s = await bootServer();
    const created = await s.post('/projects', { json: { name: 'contrib', visibility: 'public' } });
    pid = created.body.id;
    bare = path.join(s.dir, 'repos', `${created.body.path_with_namespace}.git`);
    work = new WorkTree(bare);
    work.write('a.txt', 'one\ntwo\nthree\n');
    work.commit('ann 1');
    work.write('a.txt', 'one\n2\nthree\nfour\n');
    work.commit('zoe 1', ZOE);
    work.write('b.txt', 'x\ny\n').remove('a.txt');
    work.commit('zoe 2', ZOE);
    work.write('c.bin', Buffer.from([0, 1, 2]));
    work.commit('bob 1', BOB);
    work.checkout('side', true).write('side.txt', 'side\n');
    work.commit('side', BOB);
    work.checkout('master');
    git(work.dir, ['merge', '-q', '--no-ff', '-m', 'merge side', 'side']);
    work.push('master');
  });

  after(async () => {
    work.close();
    await s.close();
  });

  it('groups by author email with real additions/deletions (git log --numstat), merges skipped', async () => {
    const r = await s.get(url(), { token: null });
    expect(r.status).to.equal(200);
    expectSchema(r.body, 'contributors.json');
    // Default order: commits ascending.
    expect(r.body.map((c: any) => c.commits)).to.deep.equal([1, 2, 2]);
    const numstat: Record<string, [number, number, number]> = {};
    let who = '';
    for (const line of git(bare, ['log', '--no-merges', '--numstat', '-M', '--format=@%ae', 'master']).split('\n')) {
      if (line.startsWith('@')) {
        who = line.slice(1);
        numstat[who] ??= [0, 0, 0];
        numstat[who][0]++;
      } else if (/^\d+\t\d+\t/.test(line)) {
        const [a, d] = line.split('\t');
        numstat[who][1] += Number(a);
        numstat[who][2] += Number(d);
      }
    }
    const got = Object.fromEntries(r.body.map((c: any) => [c.email, [c.commits, c.additions, c.deletions]]));
    expect(got).to.deep.equal(numstat);
    expect(r.body.find((c: any) => c.email === 'Zoe@example.com').name).to.equal('zoe');
  });

  it('orders by name case-insensitively, email, commits desc', async () => {
    const byName = await s.get(url(), { query: { order_by: 'name', sort: 'asc' } });
    expect(byName.body.map((c: any) => c.name)).to.deep.equal(['Ann Author', 'Bob', 'zoe']);
    const byEmail = await s.get(url(), { query: { order_by: 'email', sort: 'desc' } });
    expect(byEmail.body.map((c: any) => c.email)).to.deep.equal(['Zoe@example.com', 'bob@example.com', 'ann@example.com']);
    const byCommits = await s.get(url(), { query: { sort: 'desc' } });
    expect(byCommits.body[0].commits).to.equal(2);
    expect(byCommits.body[2].commits).to.equal(1);
  });

  it('paginates with links that carry the default order (gitlab-ce#45363)', async () => {
    const r = await s.get(url(), { query: { per_page: 2 } });
    expect(r.body).to.have.length(2);
    expect(r.headers.get('x-total')).to.equal('3');
    expect(r.headers.get('x-next-page')).to.equal('2');
    const first = r.headers.get('link')!.split(';')[0];
    expect(first).to.include('order_by=commits');
    expect(first).to.include('sort=asc');
  });

  it('follows a new head commit (the cache is keyed by it)', async () => {
    const before = await s.get(url(), { query: { order_by: 'email' } });
    work.write('new.txt', 'n\n');
    work.commit('ann 2');
    work.push('master');
    const after = await s.get(url(), { query: { order_by: 'email' } });
    const ann = (list: any[]) => list.find((c) => c.email === 'ann@example.com');
    expect(ann(after.body).commits).to.equal(ann(before.body).commits + 1);
    expect(ann(after.body).additions).to.equal(ann(before.body).additions + 1);
  });

  it('400s values outside the lists', async () => {
    const r = await s.get(url(), { query: { order_by: 'size', sort: 'up' } });
    expect([r.status, r.body]).to.deep.equal([400, { error: 'order_by does not have a valid value, sort does not have a valid value' }]);
  });

  it('answers an empty repository with a bare 404', async () => {
    const empty = await s.post('/projects', { json: { name: 'empty', visibility: 'public' } });
    const r = await s.get(`/projects/${empty.body.id}/repository/contributors`);
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Not Found' }]);
  });

  it('checks access: anonymous on private 404, guest 403, reporter passes (empty repo: bare 404)', async () => {
    const priv = await s.post('/projects', { json: { name: 'priv', visibility: 'private' } });
    const anon = await s.get(`/projects/${priv.body.id}/repository/contributors`, { token: null });
    expect([anon.status, anon.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    const g = await s.createUser('guest1');
    await insertMember(s.db, { sourceType: 'project', sourceId: priv.body.id, userId: g.user.id, accessLevel: 10 });
    const asGuest = await s.get(`/projects/${priv.body.id}/repository/contributors`, { token: g.token, query: { order_by: 'bad' } });
    expect([asGuest.status, asGuest.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
    const rep = await s.createUser('reporter1');
    await insertMember(s.db, { sourceType: 'project', sourceId: priv.body.id, userId: rep.user.id, accessLevel: 20 });
    const asReporter = await s.get(`/projects/${priv.body.id}/repository/contributors`, { token: rep.token });
    expect([asReporter.status, asReporter.body]).to.deep.equal([404, { message: '404 Not Found' }]);
  });
});
