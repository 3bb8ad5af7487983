// Members API for groups and projects: the same five routes under both, with GitLab 10.8's
// statuses and bodies, search, pagination, access requests, owners that cannot be removed.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';

const MEMBER_KEYS = ['id', 'name', 'username', 'state', 'avatar_url', 'web_url', 'access_level', 'expires_at'];

type Who = { user: { id: number; username: string }; token: string };

describe('Members API', () => {
  let s: TestServer;
  let owner: Who; // owns the group, masters the project (its personal namespace owner)
  let developer: Who;
  let stranger: Who;
  let requester: Who;
  /** kind → id of the public source used by the shared examples */
  const source: Record<'groups' | 'projects', number> = { groups: 0, projects: 0 };
  /** A private source of each kind that the stranger cannot see. */
  const hidden: Record<'groups' | 'projects', number> = { groups: 0, projects: 0 };

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('owner');
    developer = await s.createUser('developer');
    stranger = await s.createUser('stranger');
    requester = await s.createUser('requester');
    const group = await s.post('/groups', { token: owner.token, json: { name: 'Team', path: 'team', visibility: 'public' } });
    const project = await s.post('/projects', { token: owner.token, json: { name: 'app', visibility: 'public' } });
    source.groups = group.body.id;
    source.projects = project.body.id;
    hidden.groups = (await s.post('/groups', { token: owner.token, json: { name: 'Hidden', path: 'hidden' } })).body.id;
    hidden.projects = (await s.post('/projects', { token: owner.token, json: { name: 'hidden' } })).body.id;
    for (const kind of ['groups', 'projects'] as const) {
      const r = await s.post(`/${kind}/${source[kind]}/members`, { token: owner.token, json: { user_id: developer.user.id, access_level: 30 } });
      expect(r.status).to.equal(201);
      // An access request: a members row with requested_at set is not a membership.
      await s.db('members').insert({
        source_type: kind === 'groups' ? 'group' : 'project',
        source_id: source[kind],
        user_id: requester.user.id,
        access_level: 30,
        requested_at: new Date().toISOString(),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      });
    }
  });
  after(async () => s.close());

  const ownerLevel = { groups: 50, projects: 40 };

  for (const kind of ['groups', 'projects'] as const) {
    const notFoundSource = { message: `404 ${kind === 'groups' ? 'Group' : 'Project'} Not Found` };

    describe(`/${kind}/:id/members`, () => {
      const url = (suffix = '') => `/${kind}/${source[kind]}/members${suffix}`;

      it('needs a signed-in user for every route (401)', async () => {
        for (const [method, path] of [
          ['GET', url()],
          ['GET', url(`/${developer.user.id}`)],
          ['POST', url()],
          ['PUT', url(`/${developer.user.id}`)],
          ['DELETE', url(`/${developer.user.id}`)],
        ]) {
          const r = await s.request(method, path, { token: null });
          expect(r.status, `${method} ${path}`).to.equal(401);
          expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
        }
      });

      it('lists the direct members, not access requesters, to anyone who can see the source', async () => {
        for (const who of [owner, developer, stranger, requester]) {
          const r = await s.get(url(), { token: who.token });
          expect(r.status).to.equal(200);
          expect(r.body.map((m: { id: number }) => m.id)).to.deep.equal([owner.user.id, developer.user.id]);
          expect(r.headers.get('x-total')).to.equal('2');
        }
        const r = await s.get(url(), { token: stranger.token });
        expect(r.body[0]).to.have.all.keys(...MEMBER_KEYS);
        expect(r.body[1]).to.deep.include({
          id: developer.user.id,
          username: 'developer',
          name: 'Developer',
          state: 'active',
          access_level: 30,
          expires_at: null,
          web_url: `${s.url}/developer`,
        });
        expect(r.body[0].access_level).to.equal(ownerLevel[kind]);
        expectSchema(r.body, 'public_api/v4/user/basics.json');
      });

      it('searches members by name, username or exact email, and pages', async () => {
        const byName = await s.get(url(), { token: developer.token, query: { query: 'OWN' } });
        expect(byName.body.map((m: { username: string }) => m.username)).to.deep.equal(['owner']);
        const byEmail = await s.get(url(), { token: developer.token, query: { query: 'developer@example.com' } });
        expect(byEmail.body.map((m: { username: string }) => m.username)).to.deep.equal(['developer']);
        const partialEmail = await s.get(url(), { token: developer.token, query: { query: 'example.com' } });
        expect(partialEmail.body).to.deep.equal([]);
        const blank = await s.get(url(), { token: developer.token, query: { query: '' } });
        expect(blank.body).to.have.length(2);
        const page = await s.get(url(), { token: developer.token, query: { per_page: 1, page: 2 } });
        expect(page.body.map((m: { id: number }) => m.id)).to.deep.equal([developer.user.id]);
        expect(page.headers.get('x-total-pages')).to.equal('2');
        expect(page.headers.get('x-prev-page')).to.equal('1');
      });

      it('shows one member; a non-member or requester is 404 Not found', async () => {
        const r = await s.get(url(`/${developer.user.id}`), { token: stranger.token });
        expect(r.status).to.equal(200);
        expect(r.body).to.have.all.keys(...MEMBER_KEYS);
        expect(r.body).to.include({ id: developer.user.id, access_level: 30 });
        for (const id of [stranger.user.id, requester.user.id, 999999]) {
          const missing = await s.get(url(`/${id}`), { token: owner.token });
          expect(missing.status).to.equal(404);
          expect(missing.body).to.deep.equal({ message: '404 Not found' });
        }
      });

      it('has no /members/all in 10.8: "all" is not a user id (400)', async () => {
        const r = await s.get(url('/all'), { token: owner.token });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ error: 'user_id is invalid' });
      });

      it('hides a source the user cannot see behind 404', async () => {
        const base = `/${kind}/${hidden[kind]}/members`;
        for (const [method, path, json] of [
          ['GET', base, undefined],
          ['GET', `${base}/${owner.user.id}`, undefined],
          ['POST', base, { user_id: stranger.user.id, access_level: 30 }],
          ['PUT', `${base}/${owner.user.id}`, { access_level: 30 }],
          ['DELETE', `${base}/${owner.user.id}`, undefined],
        ] as const) {
          const r = await s.request(method, path, { token: stranger.token, json });
          expect(r.status, `${method} ${path}`).to.equal(404);
          expect(r.body).to.deep.equal(notFoundSource);
        }
      });

      describe('POST', () => {
        it('adds a member with an expiry date (201)', async () => {
          const newcomer = await s.createUser(`new-${kind}`);
          const r = await s.post(url(), { token: owner.token, json: { user_id: newcomer.user.id, access_level: 20, expires_at: '2030-08-05' } });
          expect(r.status).to.equal(201);
          expect(r.body).to.have.all.keys(...MEMBER_KEYS);
          expect(r.body).to.include({ id: newcomer.user.id, username: `new-${kind}`, access_level: 20, expires_at: '2030-08-05' });
          const stamp = await s.post(url(), { token: owner.token, form: { user_id: String(stranger.user.id), access_level: '10', expires_at: '2031-01-02T23:30:00-05:00' } });
          expect(stamp.body).to.include({ access_level: 10, expires_at: '2031-01-02' });
          await s.delete(url(`/${stranger.user.id}`), { token: owner.token });
        });

        it('answers 409 when the user already is a member', async () => {
          const r = await s.post(url(), { token: owner.token, json: { user_id: developer.user.id, access_level: 40 } });
          expect(r.status).to.equal(409);
          expect(r.body).to.deep.equal({ message: 'Member already exists' });
        });

        it('turns an access request into a membership', async () => {
          const r = await s.post(url(), { token: owner.token, json: { user_id: requester.user.id, access_level: 40 } });
          expect(r.status).to.equal(201);
          expect(r.body).to.include({ id: requester.user.id, access_level: 40 });
          const one = await s.get(url(`/${requester.user.id}`), { token: owner.token });
          expect(one.body.access_level).to.equal(40);
          await s.delete(url(`/${requester.user.id}`), { token: owner.token });
        });

        it(`needs ${kind === 'groups' ? 'the owner' : 'a master'} (403)`, async () => {
          for (const who of [developer, stranger]) {
            const r = await s.post(url(), { token: who.token, json: { user_id: stranger.user.id, access_level: 30 } });
            expect(r.status).to.equal(403);
            expect(r.body).to.deep.equal({ message: '403 Forbidden' });
          }
        });

        it('checks permission before parameters, then answers Grape messages', async () => {
          const denied = await s.post(url(), { token: developer.token, json: {} });
          expect(denied.status).to.equal(403);
          expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
          const missing = await s.post(url(), { token: owner.token, json: {} });
          expect(missing.status).to.equal(400);
          expect(missing.body).to.deep.equal({ error: 'user_id is missing, access_level is missing' });
          const invalid = await s.post(url(), { token: owner.token, json: { user_id: 'me', access_level: 'high', expires_at: 'soon' } });
          expect(invalid.body).to.deep.equal({ error: 'user_id is invalid, access_level is invalid, expires_at is invalid' });
        });

        it('refuses an access level outside the list with the model error', async () => {
          const twice = kind === 'projects';
          const r = await s.post(url(), { token: owner.token, json: { user_id: stranger.user.id, access_level: 1234 } });
          expect(r.status).to.equal(400);
          expect(r.body).to.deep.equal({
            message: { access_level: twice ? ['is not included in the list', 'is not included in the list'] : ['is not included in the list'] },
          });
          const owners = await s.post(url(), { token: owner.token, json: { user_id: stranger.user.id, access_level: 50 } });
          if (kind === 'projects') {
            expect(owners.status).to.equal(400);
            expect(owners.body).to.deep.equal({ message: { access_level: ['is not included in the list'] } });
          } else {
            expect(owners.status).to.equal(201);
            await s.delete(url(`/${stranger.user.id}`), { token: owner.token });
          }
        });

        it('answers an unknown user as GitLab does: as a failed e-mail invitation (400)', async () => {
          const r = await s.post(url(), { token: owner.token, json: { user_id: 987654, access_level: 30 } });
          expect(r.status).to.equal(400);
          expect(r.body).to.deep.equal({ message: { invite_email: ['is invalid'] } });
        });
      });

      describe('PUT', () => {
        it('changes the level and the expiry date', async () => {
          const r = await s.put(url(`/${developer.user.id}`), { token: owner.token, json: { access_level: 40, expires_at: '2030-01-31' } });
          expect(r.status).to.equal(200);
          expect(r.body).to.have.all.keys(...MEMBER_KEYS);
          expect(r.body).to.include({ id: developer.user.id, access_level: 40, expires_at: '2030-01-31' });
          const kept = await s.put(url(`/${developer.user.id}`), { token: owner.token, json: { access_level: 30 } });
          expect(kept.body).to.include({ access_level: 30, expires_at: '2030-01-31' });
          const cleared = await s.put(url(`/${developer.user.id}`), { token: owner.token, json: { access_level: 30, expires_at: null } });
          expect(cleared.body.expires_at).to.equal(null);
        });

        it('answers 400 for a missing or invalid level, 404 Not found for a non-member, 403 without rights', async () => {
          const missing = await s.put(url(`/${developer.user.id}`), { token: owner.token, json: {} });
          expect(missing.status).to.equal(400);
          expect(missing.body).to.deep.equal({ error: 'access_level is missing' });
          const invalid = await s.put(url(`/${developer.user.id}`), { token: owner.token, json: { access_level: 5 } });
          expect(invalid.status).to.equal(400);
          expect(invalid.body.message.access_level[0]).to.equal('is not included in the list');
          const nobody = await s.put(url(`/${stranger.user.id}`), { token: owner.token, json: { access_level: 30 } });
          expect(nobody.status).to.equal(404);
          expect(nobody.body).to.deep.equal({ message: '404 Not found' });
          const denied = await s.put(url(`/${developer.user.id}`), { token: developer.token, json: { access_level: 40 } });
          expect(denied.status).to.equal(403);
          expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
        });

        it(kind === 'groups' ? 'refuses to change the last owner (403)' : 'refuses to change the personal owner (403)', async () => {
          for (const token of [owner.token, undefined]) {
            const r = await s.put(url(`/${owner.user.id}`), { token, json: { access_level: 30 } });
            expect(r.status).to.equal(403);
            expect(r.body).to.deep.equal({ message: '403 Forbidden' });
          }
        });
      });

      describe('DELETE', () => {
        it('removes a member (204) and lets members leave', async () => {
          const leaver = await s.createUser(`leaver-${kind}`);
          const removed = await s.createUser(`removed-${kind}`);
          for (const who of [leaver, removed]) {
            await s.post(url(), { token: owner.token, json: { user_id: who.user.id, access_level: 10 } });
          }
          const leave = await s.delete(url(`/${leaver.user.id}`), { token: leaver.token });
          expect(leave.status).to.equal(204);
          expect(leave.text).to.equal('');
          const remove = await s.delete(url(`/${removed.user.id}`), { token: owner.token });
          expect(remove.status).to.equal(204);
          const left = (await s.get(url(), { token: owner.token })).body.map((m: { id: number }) => m.id);
          expect(left).to.include.members([owner.user.id, developer.user.id]);
          expect(left).to.not.include(leaver.user.id);
          expect(left).to.not.include(removed.user.id);
        });

        it('answers 404 Not found for a non-member or requester, 403 for others without rights', async () => {
          for (const id of [stranger.user.id, 999999]) {
            const r = await s.delete(url(`/${id}`), { token: owner.token });
            expect(r.status).to.equal(404);
            expect(r.body).to.deep.equal({ message: '404 Not found' });
          }
          const denied = await s.delete(url(`/${owner.user.id}`), { token: developer.token });
          expect(denied.status).to.equal(403);
          expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
          const byStranger = await s.delete(url(`/${developer.user.id}`), { token: stranger.token });
          expect(byStranger.status).to.equal(403);
        });

        it('answers 412 when If-Unmodified-Since is older than the membership', async () => {
          const r = await s.delete(url(`/${developer.user.id}`), { token: owner.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
          expect(r.status).to.equal(412);
          expect(r.body).to.deep.equal({ message: '412 Precondition Failed' });
          expect((await s.get(url(`/${developer.user.id}`), { token: owner.token })).status).to.equal(200);
        });

        it(kind === 'groups' ? 'never removes the last owner, not even for admins (403)' : 'never removes the personal owner (403)', async () => {
          for (const token of [owner.token, undefined]) {
            const r = await s.delete(url(`/${owner.user.id}`), { token });
            expect(r.status).to.equal(403);
            expect(r.body).to.deep.equal({ message: '403 Forbidden' });
          }
        });
      });
    });
  }

  describe('group owners', () => {
    it('may be demoted or removed while another owner remains', async () => {
      const a = await s.createUser('owner-a');
      const b = await s.createUser('owner-b');
      const group = (await s.post('/groups', { token: a.token, json: { name: 'Pair', path: 'pair' } })).body;
      const url = `/groups/${group.id}/members`;
      expect((await s.post(url, { token: a.token, json: { user_id: b.user.id, access_level: 50 } })).status).to.equal(201);
      const demote = await s.put(`${url}/${a.user.id}`, { token: a.token, json: { access_level: 40 } });
      expect(demote.status).to.equal(200);
      expect(demote.body.access_level).to.equal(40);
      const lastOwner = await s.delete(`${url}/${b.user.id}`, { token: b.token });
      expect(lastOwner.status).to.equal(403);
      expect((await s.delete(`${url}/${a.user.id}`, { token: b.token })).status).to.equal(204);
    });

    it('turn a race to add the same user into one 201 and 409s', async () => {
      const racer = await s.createUser('racer');
      const replies = await Promise.all(
        Array.from({ length: 4 }, () => s.post(`/groups/${source.groups}/members`, { token: owner.token, json: { user_id: racer.user.id, access_level: 30 } })),
      );
      expect(replies.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409]);
      for (const r of replies.filter((x) => x.status === 409)) expect(r.body).to.deep.equal({ message: 'Member already exists' });
    });

    it('cannot both leave when they race to demote each other', async () => {
      const a = await s.createUser('duel-a');
      const b = await s.createUser('duel-b');
      const group = (await s.post('/groups', { token: a.token, json: { name: 'Duel', path: 'duel' } })).body;
      const url = `/groups/${group.id}/members`;
      await s.post(url, { token: a.token, json: { user_id: b.user.id, access_level: 50 } });
      const replies = await Promise.all([s.delete(`${url}/${a.user.id}`, { token: a.token }), s.delete(`${url}/${b.user.id}`, { token: b.token })]);
      expect(replies.map((r) => r.status).sort()).to.deep.equal([204, 403]);
      const left = (await s.get(url)).body;
      expect(left).to.have.length(1);
      expect(left[0].access_level).to.equal(50);
    });

    it('of a parent group manage the members of its subgroups', async () => {
      const parent = (await s.post('/groups', { token: owner.token, json: { name: 'Up', path: 'up' } })).body;
      const child = (await s.post('/groups', { token: owner.token, json: { name: 'Down', path: 'down', parent_id: parent.id } })).body;
      const boss = await s.createUser('boss');
      await s.post(`/groups/${parent.id}/members`, { token: owner.token, json: { user_id: boss.user.id, access_level: 50 } });
      const r = await s.post(`/groups/${child.id}/members`, { token: boss.token, json: { user_id: stranger.user.id, access_level: 30 } });
      expect(r.status).to.equal(201);
      const listed = await s.get(`/groups/${child.id}/members`, { token: boss.token });
      expect(listed.body.map((m: { id: number }) => m.id)).to.deep.equal([owner.user.id, stranger.user.id]);
    });
  });
});
