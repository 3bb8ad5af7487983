// Access requests (GitLab 10.8 lib/api/access_requests.rb) of projects and groups: listing
// (managers only), requesting (who may, and every refusal), approving and denying or
// withdrawing, with statuses and bodies; requesters count as members nowhere.
import { expect } from 'chai';
import { created } from '../helpers/projects.js';
import { projectWithRoles, useServerWithRoles } from '../helpers/roles.js';

const REQUESTER_KEYS = ['id', 'name', 'username', 'state', 'avatar_url', 'web_url', 'requested_at'];
const FORBIDDEN = { message: '403 Forbidden' };

describe('Access requests API', function () {
  this.timeout(60_000);
  const { s, owner, master, dev, guest, stranger, admin } = useServerWithRoles();

  describe('projects', () => {
    let project: { id: number };
    let closed: { id: number };
    let hidden: { id: number };
    const url = (id: number, suffix = '') => `/projects/${id}/access_requests${suffix}`;
    before(async () => {
      project = await projectWithRoles(s, owner, { master, dev, guest }, { name: 'open-door', visibility: 'public', request_access_enabled: true });
      closed = await projectWithRoles(s, owner, {}, { name: 'closed-door', visibility: 'public', request_access_enabled: false });
      hidden = await projectWithRoles(s, owner, {}, { name: 'hidden-door', visibility: 'private', request_access_enabled: true });
    });

    it('a stranger asks (201, AccessRequester); asking again is 400', async () => {
      const r = await s.post(url(project.id), { token: stranger.token });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(REQUESTER_KEYS);
      expect(r.body).to.include({ id: stranger.user.id, username: 'stranger', state: 'active', web_url: `${s.url}/stranger` });
      expect(r.body.requested_at).to.match(/^\d{4}-\d\d-\d\dT/);
      const again = await s.post(url(project.id), { token: stranger.token });
      expect(again.status).to.equal(400);
      expect(again.body).to.deep.equal({ message: { user_id: ['already exists in source'] } });
    });

    it('refuses members, admins and projects with requests off (403); hides private projects (404)', async () => {
      for (const who of [guest, dev, owner, admin]) {
        const r = await s.post(url(project.id), { token: who.token });
        expect(r.status, who.user.username).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
      const off = await s.post(url(closed.id), { token: stranger.token });
      expect(off.status).to.equal(403);
      expect(off.body).to.deep.equal(FORBIDDEN);
      const invisible = await s.post(url(hidden.id), { token: stranger.token });
      expect(invisible.status).to.equal(404);
      expect(invisible.body).to.deep.equal({ message: '404 Project Not Found' });
      const anonymous = await s.post(url(project.id), { token: null });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
    });

    it('lists requests to masters (200, paginated); 403 to developers', async () => {
      const r = await s.get(url(project.id), { token: master.token });
      expect(r.status).to.equal(200);
      expect(r.body.map((x: { username: string }) => x.username)).to.deep.equal(['stranger']);
      expect(r.headers.get('x-total')).to.equal('1');
      const dev403 = await s.get(url(project.id), { token: dev.token });
      expect(dev403.status).to.equal(403);
      expect(dev403.body).to.deep.equal(FORBIDDEN);
    });

    it('a requester is no member: not listed, no access, no membership listing', async () => {
      const members = await s.get(`/projects/${project.id}/members`, { token: master.token });
      expect(members.body.map((m: { username: string }) => m.username)).not.to.include('stranger');
      const one = await s.get(`/projects/${project.id}/members/${stranger.user.id}`, { token: master.token });
      expect(one.status).to.equal(404);
      const mine = await s.get('/projects?membership=true', { token: stranger.token });
      expect(mine.body.map((p: { id: number }) => p.id)).not.to.include(project.id);
      const snippet = await s.post(`/projects/${project.id}/snippets`, { token: stranger.token, json: { title: 't', file_name: 'f', code: 'c', visibility: 'public' } });
      expect(snippet.status).to.equal(403);
    });

    it('approving: 403 to developers, 404 Not found for no request, 400 for a bad level, 201 Member', async () => {
      const byDev = await s.put(url(project.id, `/${stranger.user.id}/approve`), { token: dev.token });
      expect(byDev.status).to.equal(403);
      expect(byDev.body).to.deep.equal(FORBIDDEN);
      const none = await s.put(url(project.id, `/${guest.user.id}/approve`), { token: master.token });
      expect(none.status).to.equal(404);
      expect(none.body).to.deep.equal({ message: '404 Not found' });
      const bad = await s.put(url(project.id, `/${stranger.user.id}/approve`), { token: master.token, json: { access_level: 50 } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ message: { access_level: ['is not included in the list'] } });
      const badId = await s.put(url(project.id, '/abc/approve'), { token: master.token });
      expect(badId.status).to.equal(400);
      expect(badId.body).to.deep.equal({ error: 'user_id is invalid' });
      const r = await s.put(url(project.id, `/${stranger.user.id}/approve`), { token: master.token });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ id: stranger.user.id, username: 'stranger', access_level: 30, expires_at: null });
      const members = await s.get(`/projects/${project.id}/members`, { token: master.token });
      expect(members.body.map((m: { username: string }) => m.username)).to.include('stranger');
      expect((await s.get(url(project.id), { token: master.token })).body).to.deep.equal([]);
      const now = await s.post(url(project.id), { token: stranger.token });
      expect(now.status).to.equal(403);
      await s.delete(`/projects/${project.id}/members/${stranger.user.id}`, { token: master.token });
    });

    it('approves at the level given', async () => {
      const asker = await s.createUser('asker');
      expect((await s.post(url(project.id), { token: asker.token })).status).to.equal(201);
      const r = await s.put(url(project.id, `/${asker.user.id}/approve`), { token: master.token, json: { access_level: 40 } });
      expect(r.status).to.equal(201);
      expect(r.body.access_level).to.equal(40);
    });

    it('denying (masters) and withdrawing (the requester) are 204; others 403; no request 404', async () => {
      const a = await s.createUser('asker-a');
      const b = await s.createUser('asker-b');
      for (const who of [a, b]) expect((await s.post(url(project.id), { token: who.token })).status).to.equal(201);
      const byOther = await s.delete(url(project.id, `/${a.user.id}`), { token: b.token });
      expect(byOther.status).to.equal(403);
      expect(byOther.body).to.deep.equal(FORBIDDEN);
      const byGuest = await s.delete(url(project.id, `/${a.user.id}`), { token: guest.token });
      expect(byGuest.status).to.equal(403);
      expect((await s.delete(url(project.id, `/${a.user.id}`), { token: a.token })).status).to.equal(204);
      expect((await s.delete(url(project.id, `/${b.user.id}`), { token: master.token })).status).to.equal(204);
      const gone = await s.delete(url(project.id, `/${b.user.id}`), { token: master.token });
      expect(gone.status).to.equal(404);
      expect(gone.body).to.deep.equal({ message: '404 Not found' });
      const member = await s.delete(url(project.id, `/${dev.user.id}`), { token: master.token });
      expect(member.status).to.equal(404);
      expect((await s.db('members').where({ source_type: 'project', source_id: project.id }).whereNotNull('requested_at')).length).to.equal(0);
    });
  });

  describe('groups', () => {
    let group: { id: number };
    let closedGroup: { id: number };
    const url = (id: number, suffix = '') => `/groups/${id}/access_requests${suffix}`;
    before(async () => {
      group = created(await s.post('/groups', { token: owner.token, json: { name: 'club', path: 'club', visibility: 'public', request_access_enabled: true } }));
      closedGroup = created(await s.post('/groups', { token: owner.token, json: { name: 'shut', path: 'shut', visibility: 'public', request_access_enabled: false } }));
      expect((await s.post(`/groups/${group.id}/members`, { token: owner.token, json: { user_id: master.user.id, access_level: 40 } })).status).to.equal(201);
    });

    it('request, list (owners only), approve and deny', async () => {
      const r = await s.post(url(group.id), { token: stranger.token });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(REQUESTER_KEYS);
      const member = await s.post(url(group.id), { token: master.token });
      expect(member.status).to.equal(403);
      expect(member.body).to.deep.equal(FORBIDDEN);
      const off = await s.post(url(closedGroup.id), { token: stranger.token });
      expect(off.status).to.equal(403);
      expect(off.body).to.deep.equal(FORBIDDEN);
      const byMaster = await s.get(url(group.id), { token: master.token });
      expect(byMaster.status).to.equal(403);
      const list = await s.get(url(group.id), { token: owner.token });
      expect(list.status).to.equal(200);
      expect(list.body.map((x: { username: string }) => x.username)).to.deep.equal(['stranger']);
      const members = await s.get(`/groups/${group.id}/members`, { token: owner.token });
      expect(members.body.map((m: { username: string }) => m.username)).not.to.include('stranger');
      const approveByMaster = await s.put(url(group.id, `/${stranger.user.id}/approve`), { token: master.token });
      expect(approveByMaster.status).to.equal(403);
      const approved = await s.put(url(group.id, `/${stranger.user.id}/approve`), { token: owner.token, json: { access_level: 50 } });
      expect(approved.status).to.equal(201);
      expect(approved.body).to.include({ username: 'stranger', access_level: 50 });
      const asker = await s.createUser('group-asker');
      expect((await s.post(url(group.id), { token: asker.token })).status).to.equal(201);
      expect((await s.delete(url(group.id, `/${asker.user.id}`), { token: owner.token })).status).to.equal(204);
      const missing = await s.delete(url(group.id, `/${asker.user.id}`), { token: owner.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
    });

    it('hides private groups (404 Group Not Found)', async () => {
      const secret = created(await s.post('/groups', { token: owner.token, json: { name: 'secret', path: 'secret', visibility: 'private', request_access_enabled: true } }));
      const r = await s.post(url(secret.id), { token: stranger.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Group Not Found' });
    });
  });
});
