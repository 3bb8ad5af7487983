// GET /user/activities: admins see who was active since `from` (six months by default), oldest
// activity first, with GitLab 10.8's UserActivity shape; a real git clone over HTTP moves the
// cloner's day, as 10.8's Users::ActivityService does on a pull.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { openApiSchemas } from '../helpers/openapi_schemas.js';
import { createProject } from '../helpers/projects.js';
import { gitOk, repoUrl, tempDir } from '../transport/git_client.js';
import type { UserRow } from '../../src/store/rows.js';

type Account = { user: UserRow; token: string };
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('User activities API', function () {
  this.timeout(60_000);
  let s: TestServer;
  let alice: Account;
  let bob: Account;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    const carol = await s.createUser('carol');
    const dave = await s.createUser('dave');
    // Earlier activity, as an older pull or push would have left it.
    await s
      .db('users')
      .where({ id: carol.user.id })
      .update({ last_activity_on: day(3) });
    await s
      .db('users')
      .where({ id: dave.user.id })
      .update({ last_activity_on: day(300) });
  });
  after(async () => s.close());

  it('is for admins: 401 anonymous, 403 others', async () => {
    const anon = await s.get('/user/activities', { token: null });
    expect(anon.status).to.equal(401);
    expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
    const user = await s.get('/user/activities', { token: alice.token });
    expect(user.status).to.equal(403);
    expect(user.body).to.deep.equal({ message: '403 Forbidden' });
  });

  it('shows a member who cloned over HTTP today, after those active earlier in the last six months', async () => {
    // A private project: git sends the credentials only when the server asks for them.
    const project = await createProject(s, alice.token, { name: 'open', visibility: 'private', initialize_with_readme: true });
    const member = await s.post(`/projects/${project.id}/members`, { token: alice.token, json: { user_id: bob.user.id, access_level: 20 } });
    expect(member.status, member.text).to.equal(201);
    await gitOk(['clone', '-q', repoUrl(s, project.path_with_namespace, bob.token, 'bob'), `${tempDir()}/open`]);
    const r = await s.get('/user/activities');
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('x-total')).to.equal('2');
    (await openApiSchemas(s))(r.body, 'UserActivity', true);
    expect(r.body).to.deep.equal([
      { username: 'carol', last_activity_on: day(3), last_activity_at: day(3) },
      { username: 'bob', last_activity_on: day(0), last_activity_at: day(0) },
    ]);
  });

  it('counts from `from`: a day from its midnight, so a later moment leaves that day out', async () => {
    const names = async (from: string) => (await s.get('/user/activities', { query: { from } })).body.map((a: { username: string }) => a.username);
    expect(await names(day(400))).to.deep.equal(['dave', 'carol', 'bob']);
    expect(await names(day(3))).to.deep.equal(['carol', 'bob']);
    expect(await names(`${day(3)}T00:00:00Z`)).to.deep.equal(['carol', 'bob']);
    expect(await names(`${day(3)}T10:00:00Z`)).to.deep.equal(['bob']);
    const page = await s.get('/user/activities', { query: { from: day(400), per_page: 1, page: 2 } });
    expect(page.headers.get('x-total')).to.equal('3');
    expect(page.body.map((a: { username: string }) => a.username)).to.deep.equal(['carol']);
  });

  it('answers an unreadable `from` as Grape does', async () => {
    const r = await s.get('/user/activities', { query: { from: 'yesterday-ish' } });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ error: 'from is invalid' });
  });
});
