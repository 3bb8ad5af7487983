// Events at the ends of a membership's or a project's life: the daily removal of expired
// memberships (GitLab's RemoveExpiredMembersWorker: a project member's removal is recorded as
// "removed due to membership expiration from", a group's last owner stays), and the
// "destroyed" event of a deleted project, kept without a project for its author and admins.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { REMOVE_EXPIRED_MEMBERS } from '../../src/jobs/member_expiry.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER, OWNER } from '../../src/policy/levels.js';

describe('membership expiry job', () => {
  let s: TestServer;

  before(async () => {
    s = await bootServer();
  });
  after(async () => s.close());

  it('removes due memberships of projects and groups, records the expiry, keeps the rest', async () => {
    const owner = await s.createUser('expiry-owner');
    const due = await s.createUser('expiry-due');
    const later = await s.createUser('expiry-later');
    const project = await s.post('/projects', { token: owner.token, json: { name: 'expiring', visibility: 'private' } });
    expect(project.status, project.text).to.equal(201);
    const group = await s.post('/groups', { token: owner.token, json: { name: 'expiring-group', path: 'expiring-group' } });
    expect(group.status, group.text).to.equal(201);
    const pid = project.body.id as number;
    await insertMember(s.db, { sourceType: 'project', sourceId: pid, userId: due.user.id, accessLevel: DEVELOPER, expiresAt: '2026-03-01' });
    await insertMember(s.db, { sourceType: 'project', sourceId: pid, userId: later.user.id, accessLevel: DEVELOPER, expiresAt: '2026-03-03' });
    await insertMember(s.db, { sourceType: 'group', sourceId: group.body.id, userId: due.user.id, accessLevel: DEVELOPER, expiresAt: '2026-03-02' });
    expect((await s.get(`/projects/${pid}`, { token: due.token })).status).to.equal(200);

    const job = await s.deps.jobs.perform(REMOVE_EXPIRED_MEMBERS, { at: '2026-03-02T12:00:00Z' });
    expect(job).to.deep.include({ state: 'succeeded', result: 2 });

    expect((await s.get(`/projects/${pid}`, { token: due.token })).status).to.equal(404);
    expect((await s.get(`/projects/${pid}`, { token: later.token })).status).to.equal(200);
    const members = await s.get(`/groups/${group.body.id}/members`, { token: owner.token });
    expect(members.body.map((m: { username: string }) => m.username)).to.deep.equal(['expiry-owner']);

    const events = await s.get(`/projects/${pid}/events`, { token: owner.token, query: { action: 'expired' } });
    expect(events.status).to.equal(200);
    expect(events.body.map((e: { author_username: string; action_name: string }) => [e.author_username, e.action_name])).to.deep.equal([
      ['expiry-due', 'removed due to membership expiration from'],
    ]);
  });

  it("keeps a group's last owner even when their membership has expired", async () => {
    const founder = await s.createUser('expiry-founder');
    const group = await s.post('/groups', { token: founder.token, json: { name: 'kept-group', path: 'kept-group' } });
    expect(group.status, group.text).to.equal(201);
    await s.db('members').where({ source_type: 'group', source_id: group.body.id, user_id: founder.user.id }).update({ expires_at: '2020-01-01' });
    expect((await s.deps.jobs.perform(REMOVE_EXPIRED_MEMBERS, {})).state).to.equal('succeeded');
    const row = await s.db('members').where({ source_type: 'group', source_id: group.body.id, user_id: founder.user.id }).first();
    expect(row?.access_level).to.equal(OWNER);
  });

  it('records "destroyed" for a deleted project, shown only to the deleter and admins', async () => {
    const owner = await s.createUser('destroyer');
    const other = await s.createUser('onlooker');
    const project = await s.post('/projects', { token: owner.token, json: { name: 'short-lived', visibility: 'public' } });
    expect(project.status, project.text).to.equal(201);
    expect((await s.delete(`/projects/${project.body.id}`, { token: owner.token })).status).to.equal(202);

    const mine = await s.get('/events', { token: owner.token, query: { action: 'destroyed' } });
    expect(mine.status).to.equal(200);
    expect(mine.body).to.have.length(1);
    expect(mine.body[0]).to.deep.include({
      project_id: null,
      action_name: 'destroyed',
      target_id: project.body.id,
      target_iid: project.body.id,
      target_type: 'Project',
      target_title: 'destroyer/short-lived',
      author_username: 'destroyer',
    });
    const filtered = await s.get(`/users/${owner.user.id}/events`, { token: owner.token, query: { target_type: 'project' } });
    expect(filtered.body.map((e: { action_name: string }) => e.action_name)).to.deep.equal(['destroyed']);
    const admin = await s.get(`/users/${owner.user.id}/events`, { query: { action: 'destroyed' } });
    expect(admin.body).to.have.length(1);
    for (const token of [other.token, null]) {
      const seen = await s.get(`/users/${owner.user.id}/events`, { token, query: { action: 'destroyed' } });
      expect(seen.status).to.equal(200);
      expect(seen.body).to.deep.equal([]);
    }
  });
});
