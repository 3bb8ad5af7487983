// GitLab 10.8's notification settings API: the global level (participating by default, with
// notification_email) and the level of a project or group (global by default), 10.8's bodies for
// each level (events only at custom), the refusals (an unknown level, an address the user does
// not own, a project or group the user cannot see, anonymous callers), and that a change keeps
// what it did not name.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { createProject } from '../helpers/projects.js';

const EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'success_pipeline',
];

describe('notification settings', () => {
  let s: TestServer;
  let alice: { token: string; user: any };
  let bob: { token: string; user: any };
  let project: any;
  let group: any;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    project = await createProject(s, alice.token, { name: 'app', visibility: 'private' });
    group = (await s.post('/groups', { token: alice.token, json: { name: 'Team', path: 'team', visibility: 'private' } })).body;
  });
  after(() => s.close());

  it('shows the global level, participating by default, with the notification email', async () => {
    const r = await s.get('/notification_settings', { token: alice.token });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ level: 'participating', notification_email: alice.user.email });
    expect((await s.get('/notification_settings', { token: null })).status).to.equal(401);
  });

  it('changes the global level and events, keeping what a change does not name', async () => {
    const custom = await s.put('/notification_settings', { token: alice.token, json: { level: 'custom', new_issue: true, close_issue: false } });
    expect(custom.status).to.equal(200);
    expect(custom.body.level).to.equal('custom');
    expect(Object.keys(custom.body.events)).to.deep.equal(EVENTS);
    expect(custom.body.events).to.include({ new_issue: true, close_issue: false, failed_pipeline: true, new_note: null });
    const again = await s.put('/notification_settings', { token: alice.token, json: { new_note: true } });
    expect(again.body.events).to.include({ new_issue: true, close_issue: false, new_note: true });
    const watch = await s.put('/notification_settings', { token: alice.token, json: { level: 'watch' } });
    expect(watch.body).to.deep.equal({ level: 'watch', notification_email: alice.user.email });
  });

  it('takes a notification email the user owns, and refuses another', async () => {
    expect((await s.post('/user/emails', { token: alice.token, json: { email: 'alice.work@example.com' } })).status).to.equal(201);
    const own = await s.put('/notification_settings', { token: alice.token, json: { notification_email: 'alice.work@example.com' } });
    expect(own.body.notification_email).to.equal('alice.work@example.com');
    const other = await s.put('/notification_settings', { token: alice.token, json: { notification_email: bob.user.email } });
    expect([other.status, other.body]).to.deep.equal([400, { message: { notification_email: ['is not an email you own'] } }]);
    expect((await s.get('/notification_settings', { token: alice.token })).body.notification_email).to.equal('alice.work@example.com');
  });

  it('refuses a level 10.8 does not know and an event that is no boolean', async () => {
    const bad = await s.put('/notification_settings', { token: alice.token, json: { level: 'loud' } });
    expect([bad.status, bad.body]).to.deep.equal([400, { message: "'loud' is not a valid level" }]);
    const notBool = await s.put(`/projects/${project.id}/notification_settings`, { token: alice.token, json: { new_note: 'sometimes' } });
    expect([notBool.status, notBool.body]).to.deep.equal([400, { error: 'new_note is invalid' }]);
  });

  it('keeps a level per project and per group, global by default, for sources the user can see', async () => {
    for (const base of [`/projects/${project.id}`, `/groups/${group.id}`]) {
      expect((await s.get(`${base}/notification_settings`, { token: alice.token })).body).to.deep.equal({ level: 'global' });
      const set = await s.put(`${base}/notification_settings`, { token: alice.token, json: { level: 'mention' } });
      expect([set.status, set.body]).to.deep.equal([200, { level: 'mention' }]);
      expect((await s.get(`${base}/notification_settings`, { token: alice.token })).body).to.deep.equal({ level: 'mention' });
    }
    expect((await s.get(`/projects/${project.id}/notification_settings`, { token: bob.token })).body).to.deep.equal({ message: '404 Project Not Found' });
    expect((await s.put(`/groups/${group.id}/notification_settings`, { token: bob.token, json: { level: 'watch' } })).body).to.deep.equal({ message: '404 Group Not Found' });
    // One user's settings are theirs alone.
    expect((await s.get('/notification_settings', { token: bob.token })).body.level).to.equal('participating');
  });
});
