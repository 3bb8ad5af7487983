// Groups API: the visibility matrix of lists and single groups, list filters, subgroups,
// GroupDetail, create (with subgroups), update (renames move repositories), delete.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';

const GROUP_KEYS = ['id', 'web_url', 'name', 'path', 'description', 'visibility', 'lfs_enabled', 'avatar_url', 'request_access_enabled', 'full_name', 'full_path', 'parent_id'];

type Who = { user: { id: number }; token: string };

async function makeGroup(s: TestServer, token: string | undefined, json: Record<string, unknown>) {
  const r = await s.post('/groups', { token, json });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body as { id: number; full_path: string; name: string };
}

async function makeProject(s: TestServer, token: string | undefined, json: Record<string, unknown>) {
  const r = await s.post('/projects', { token, json });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body as { id: number; path_with_namespace: string };
}

async function addMember(s: TestServer, kind: 'groups' | 'projects', id: number, userId: number, level: number) {
  const r = await s.post(`/${kind}/${id}/members`, { json: { user_id: userId, access_level: level } });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
}

const names = (body: { full_path: string }[]) => body.map((g) => g.full_path).sort();

describe('Groups API', () => {
  describe('visibility matrix', () => {
    let s: TestServer;
    let alice: Who;
    let guest: Who;
    let stranger: Who;
    let external: Who;
    const ids: Record<string, number> = {};

    before(async () => {
      s = await bootServer();
      alice = await s.createUser('alice');
      guest = await s.createUser('guest');
      stranger = await s.createUser('stranger');
      external = await s.createUser('outsider', { external: true });
      for (const visibility of ['public', 'internal', 'private']) {
        const g = await makeGroup(s, alice.token, { name: `G ${visibility}`, path: `g-${visibility}`, visibility });
        ids[visibility] = g.id;
        await addMember(s, 'groups', g.id, guest.user.id, 10);
      }
    });
    after(async () => s.close());

    it('lists public groups to anonymous users, with or without all_available', async () => {
      for (const query of [{}, { all_available: 'true' }] as Record<string, string>[]) {
        const r = await s.get('/groups', { token: null, query });
        expect(r.status).to.equal(200);
        expect(names(r.body)).to.deep.equal(['g-public']);
      }
    });

    it('lists only their own groups to signed-in users unless they ask for all_available', async () => {
      expect(names((await s.get('/groups', { token: stranger.token })).body)).to.deep.equal([]);
      expect(names((await s.get('/groups', { token: guest.token })).body)).to.deep.equal(['g-internal', 'g-private', 'g-public']);
      const all = await s.get('/groups', { token: stranger.token, query: { all_available: true } });
      expect(names(all.body)).to.deep.equal(['g-internal', 'g-public']);
      const ext = await s.get('/groups', { token: external.token, query: { all_available: true } });
      expect(names(ext.body)).to.deep.equal(['g-public']);
    });

    it('lists every group to admins, and only theirs when all_available is false', async () => {
      expect(names((await s.get('/groups')).body)).to.deep.equal(['g-internal', 'g-private', 'g-public']);
      expect(names((await s.get('/groups', { query: { all_available: false } })).body)).to.deep.equal([]);
    });

    it('shows a single group to whoever may read it, and 404 Group Not Found to others', async () => {
      const expected: [string, string | null, Record<string, number>][] = [
        ['anonymous', null, { public: 200, internal: 404, private: 404 }],
        ['non-member', stranger.token, { public: 200, internal: 200, private: 404 }],
        ['external', external.token, { public: 200, internal: 404, private: 404 }],
        ['guest', guest.token, { public: 200, internal: 200, private: 200 }],
        ['admin', ROOT_TOKEN, { public: 200, internal: 200, private: 200 }],
      ];
      for (const [who, token, statuses] of expected) {
        for (const [visibility, status] of Object.entries(statuses)) {
          const r = await s.get(`/groups/${ids[visibility]}`, { token });
          expect(r.status, `${who} on ${visibility}`).to.equal(status);
          if (status === 404) expect(r.body).to.deep.equal({ message: '404 Group Not Found' });
          else expect(r.body.id).to.equal(ids[visibility]);
        }
      }
    });

    it('lets members of a project see the groups above it, and members of a group its subgroups', async () => {
      const top = await makeGroup(s, alice.token, { name: 'Top', path: 'top' });
      const sub = await makeGroup(s, alice.token, { name: 'Sub', path: 'sub', parent_id: top.id });
      const project = await makeProject(s, alice.token, { name: 'secret', namespace_id: sub.id });
      const dev = await s.createUser('dev');
      await addMember(s, 'projects', project.id, dev.user.id, 30);
      expect(names((await s.get('/groups', { token: dev.token })).body)).to.deep.equal(['top', 'top/sub']);
      expect((await s.get('/groups/top', { token: dev.token })).status).to.equal(200);
      expect((await s.get('/groups/top', { token: stranger.token })).status).to.equal(404);

      const topMember = await s.createUser('topmember');
      await addMember(s, 'groups', top.id, topMember.user.id, 10);
      expect(names((await s.get('/groups', { token: topMember.token })).body)).to.deep.equal(['top', 'top/sub']);
      expect((await s.get(`/groups/${sub.id}`, { token: topMember.token })).status).to.equal(200);
    });
    it('lets anyone who can see a project shared with a group read the group (as GitLab 10.8 does)', async () => {
      const closed = await makeGroup(s, alice.token, { name: 'Closed', path: 'closed' });
      expect((await s.get(`/groups/${closed.id}`, { token: null })).status).to.equal(404);
      const shared = await makeProject(s, alice.token, { name: 'shared-in', namespace_id: ids.public, visibility: 'public' });
      const share = await s.post(`/projects/${shared.id}/share`, { token: alice.token, json: { group_id: closed.id, group_access: 30 } });
      expect(share.status).to.equal(201);
      expect((await s.get(`/groups/${closed.id}`, { token: null })).status).to.equal(200);
      expect(names((await s.get('/groups', { token: null })).body)).to.not.include('closed');
    });
  });

  describe('GET /groups filters', () => {
    let s: TestServer;
    let alice: Who;
    let bob: Who;

    before(async () => {
      s = await bootServer();
      alice = await s.createUser('alice');
      bob = await s.createUser('bob');
      await makeGroup(s, alice.token, { name: 'Alpha Team', path: 'zeta', visibility: 'public' });
      await makeGroup(s, alice.token, { name: 'Beta', path: 'alpha', visibility: 'public' });
      await makeGroup(s, alice.token, { name: 'Gamma', path: 'ga', visibility: 'public' });
      const owned = await makeGroup(s, bob.token, { name: 'Bobs', path: 'bobs', visibility: 'public' });
      await addMember(s, 'groups', owned.id, alice.user.id, 40);
    });
    after(async () => s.close());

    it('renders the Group entity with exactly its fields', async () => {
      const r = await s.get('/groups', { token: alice.token, query: { search: 'gamma' } });
      expect(r.body).to.have.length(1);
      expect(r.body[0]).to.have.all.keys(...GROUP_KEYS);
      expect(r.body[0]).to.deep.include({
        web_url: `${s.url}/groups/ga`,
        name: 'Gamma',
        path: 'ga',
        description: '',
        visibility: 'public',
        lfs_enabled: true, // the default, with LFS on for the server (GitLab 10.8's Group#lfs_enabled?)
        avatar_url: null,
        request_access_enabled: false,
        full_name: 'Gamma',
        full_path: 'ga',
        parent_id: null,
      });
    });

    it('orders by name ascending by default, by path, and descending on request', async () => {
      const byName = await s.get('/groups', { token: alice.token });
      expect(byName.body.map((g: { name: string }) => g.name)).to.deep.equal(['Alpha Team', 'Beta', 'Bobs', 'Gamma']);
      const desc = await s.get('/groups', { token: alice.token, query: { sort: 'desc' } });
      expect(desc.body.map((g: { name: string }) => g.name)).to.deep.equal(['Gamma', 'Bobs', 'Beta', 'Alpha Team']);
      const byPath = await s.get('/groups', { token: alice.token, query: { order_by: 'path' } });
      expect(byPath.body.map((g: { path: string }) => g.path)).to.deep.equal(['alpha', 'bobs', 'ga', 'zeta']);
    });

    it('searches names and paths: words of three letters or more as substrings, shorter terms whole', async () => {
      const alpha = await s.get('/groups', { token: alice.token, query: { search: 'ALPH' } });
      expect(alpha.body.map((g: { path: string }) => g.path).sort()).to.deep.equal(['alpha', 'zeta']);
      const short = await s.get('/groups', { token: alice.token, query: { search: 'ga' } });
      expect(short.body.map((g: { path: string }) => g.path)).to.deep.equal(['ga']);
      const words = await s.get('/groups', { token: alice.token, query: { search: 'team alp' } });
      expect(words.body.map((g: { path: string }) => g.path)).to.deep.equal(['zeta']);
    });

    it('skips groups, limits to owned ones, and pages with GitLab headers', async () => {
      const all = await s.get('/groups', { token: alice.token });
      const skip = all.body.slice(0, 2).map((g: { id: number }) => g.id);
      const skipped = await s.get('/groups', { token: alice.token, query: { 'skip_groups[]': skip } });
      expect(skipped.body.map((g: { id: number }) => g.id)).to.deep.equal(all.body.slice(2).map((g: { id: number }) => g.id));
      const owned = await s.get('/groups', { token: alice.token, query: { owned: true } });
      expect(owned.body.map((g: { path: string }) => g.path)).to.deep.equal(['zeta', 'alpha', 'ga']);
      const page = await s.get('/groups', { token: alice.token, query: { per_page: 1, page: 2 } });
      expect(page.body.map((g: { name: string }) => g.name)).to.deep.equal(['Beta']);
      expect(page.headers.get('x-total')).to.equal('4');
      expect(page.headers.get('x-total-pages')).to.equal('4');
      expect(page.headers.get('x-next-page')).to.equal('3');
      expect(page.headers.get('x-prev-page')).to.equal('1');
      expect(page.headers.get('link')).to.contain('rel="next"');
    });

    it('answers Grape 400s for bad filter values', async () => {
      const order = await s.get('/groups', { token: alice.token, query: { order_by: 'id' } });
      expect(order.status).to.equal(400);
      expect(order.body).to.deep.equal({ error: 'order_by does not have a valid value' });
      const bad = await s.get('/groups', { token: alice.token, query: { 'skip_groups[]': 'x', sort: 'up' } });
      expect(bad.body).to.deep.equal({ error: 'skip_groups is invalid, sort does not have a valid value' });
    });

    it('adds statistics for admins who ask, summed over the projects directly in each group', async () => {
      const zeta = (await s.get('/groups/zeta')).body;
      const p1 = await makeProject(s, alice.token, { name: 'p1', namespace_id: zeta.id });
      const p2 = await makeProject(s, alice.token, { name: 'p2', namespace_id: zeta.id });
      await s.db('project_statistics').where({ project_id: p1.id }).update({ repository_size: 100, lfs_objects_size: 20, job_artifacts_size: 3 });
      await s.db('project_statistics').where({ project_id: p2.id }).update({ repository_size: 1000 });
      const r = await s.get('/groups', { query: { statistics: true, search: 'zeta' } });
      expect(r.body[0]).to.have.all.keys(...GROUP_KEYS, 'statistics');
      expect(r.body[0].statistics).to.deep.equal({ storage_size: 1123, repository_size: 1100, lfs_objects_size: 20, job_artifacts_size: 3 });
      const empty = await s.get('/groups', { query: { statistics: true, search: 'Gamma' } });
      expect(empty.body[0].statistics).to.deep.equal({ storage_size: 0, repository_size: 0, lfs_objects_size: 0, job_artifacts_size: 0 });
      const user = await s.get('/groups', { token: alice.token, query: { statistics: true } });
      expect(user.body[0]).to.not.have.property('statistics');
      expect((await s.get('/groups')).body[0]).to.not.have.property('statistics');
    });

    it('filters by and shows custom attributes for admins only', async () => {
      const put = await s.put('/groups/ga/custom_attributes/tier', { json: { value: 'gold' } });
      expect(put.status).to.equal(200);
      const filtered = await s.get('/groups', { query: { 'custom_attributes[tier]': 'gold', with_custom_attributes: true } });
      expect(filtered.body.map((g: { path: string }) => g.path)).to.deep.equal(['ga']);
      expect(filtered.body[0].custom_attributes).to.deep.equal([{ key: 'tier', value: 'gold' }]);
      const asUser = await s.get('/groups', { token: alice.token, query: { 'custom_attributes[tier]': 'gold', with_custom_attributes: true } });
      expect(asUser.body).to.have.length(4);
      expect(asUser.body[0]).to.not.have.property('custom_attributes');
      const forbidden = await s.get('/groups/ga/custom_attributes', { token: alice.token });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body).to.deep.equal({ message: '403 Forbidden' });
      const single = await s.get('/groups/ga', { query: { with_custom_attributes: true } });
      expect(single.body.custom_attributes).to.deep.equal([{ key: 'tier', value: 'gold' }]);
    });
  });

  describe('GET /groups/:id and subgroups', () => {
    let s: TestServer;
    let alice: Who;
    let bob: Who;
    let parent: { id: number };
    const projects: Record<string, { id: number }> = {};

    before(async () => {
      s = await bootServer();
      alice = await s.createUser('alice');
      bob = await s.createUser('bob');
      parent = await makeGroup(s, alice.token, { name: 'Parent', path: 'parent', visibility: 'public' });
      for (const visibility of ['public', 'internal', 'private']) {
        projects[visibility] = await makeProject(s, alice.token, { name: `own-${visibility}`, namespace_id: parent.id, visibility });
        await makeGroup(s, alice.token, { name: `Child ${visibility}`, path: `child-${visibility}`, parent_id: parent.id, visibility });
      }
      const child = (await s.get('/groups/parent%2Fchild-public')).body;
      await makeProject(s, alice.token, { name: 'nested', namespace_id: child.id, visibility: 'public' });
      const other = await makeGroup(s, bob.token, { name: 'Other', path: 'other', visibility: 'public' });
      for (const visibility of ['public', 'internal', 'private']) {
        const p = await makeProject(s, bob.token, { name: `shared-${visibility}`, namespace_id: other.id, visibility });
        projects[`shared-${visibility}`] = p;
        const share = await s.post(`/projects/${p.id}/share`, { token: bob.token, json: { group_id: parent.id, group_access: 30 } });
        expect(share.status).to.equal(201);
      }
    });
    after(async () => s.close());

    it('answers GroupDetail: the group with its own projects and those shared with it, newest first', async () => {
      const r = await s.get(`/groups/${parent.id}`, { token: alice.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.have.all.keys(...GROUP_KEYS, 'projects', 'shared_projects');
      expect(r.body.projects.map((p: { id: number }) => p.id)).to.deep.equal([projects.private.id, projects.internal.id, projects.public.id]);
      expect(r.body.shared_projects.map((p: { id: number }) => p.id)).to.deep.equal([projects['shared-private'].id, projects['shared-internal'].id, projects['shared-public'].id]);
      const project = r.body.projects[0];
      expect(project).to.include({ path_with_namespace: 'parent/own-private', visibility: 'private' });
      expect(project).to.have.property('_links');
      expect(project).to.not.have.property('permissions');
      expect(project).to.not.have.property('runners_token');
    });

    it('shows each viewer only the projects they may see', async () => {
      const anonymous = await s.get(`/groups/${parent.id}`, { token: null });
      expect(anonymous.body.projects.map((p: { id: number }) => p.id)).to.deep.equal([projects.public.id]);
      expect(anonymous.body.shared_projects.map((p: { id: number }) => p.id)).to.deep.equal([projects['shared-public'].id]);
      const carol = await s.createUser('carol');
      const signedIn = await s.get(`/groups/${parent.id}`, { token: carol.token });
      expect(signedIn.body.projects.map((p: { id: number }) => p.id)).to.deep.equal([projects.internal.id, projects.public.id]);
    });

    it('finds a subgroup by its URL-encoded full path, case-insensitively', async () => {
      const r = await s.get('/groups/Parent%2FChild-Private', { token: alice.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ full_path: 'parent/child-private', full_name: 'Parent / Child private', parent_id: parent.id });
      for (const id of ['99999', 'parent%2Fnope', 'nope']) {
        const missing = await s.get(`/groups/${id}`, { token: alice.token });
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ message: '404 Group Not Found' });
      }
    });

    it('lists subgroups with the same visibility rules as GET /groups', async () => {
      const anonymous = await s.get(`/groups/${parent.id}/subgroups`, { token: null });
      expect(names(anonymous.body)).to.deep.equal(['parent/child-public']);
      const carol = await s.createUser('dave');
      expect(names((await s.get(`/groups/${parent.id}/subgroups`, { token: carol.token })).body)).to.deep.equal([]);
      const all = await s.get(`/groups/${parent.id}/subgroups`, { token: carol.token, query: { all_available: true } });
      expect(names(all.body)).to.deep.equal(['parent/child-internal', 'parent/child-public']);
      const owner = await s.get(`/groups/${parent.id}/subgroups`, { token: alice.token });
      expect(names(owner.body)).to.deep.equal(['parent/child-internal', 'parent/child-private', 'parent/child-public']);
      expect(owner.body[0]).to.have.all.keys(...GROUP_KEYS);
      const hidden = await s.get('/groups/parent%2Fchild-private/subgroups', { token: carol.token });
      expect(hidden.status).to.equal(404);
      expect(hidden.body).to.deep.equal({ message: '404 Group Not Found' });
    });
  });

  describe('POST /groups', () => {
    let s: TestServer;
    let alice: Who;
    let bob: Who;

    before(async () => {
      s = await bootServer();
      alice = await s.createUser('alice');
      bob = await s.createUser('bob');
    });
    after(async () => s.close());

    const failed = (errors: string) => ({ message: `Failed to save group ${errors}` });

    it('creates a private group by default and makes its creator the owner', async () => {
      const r = await s.post('/groups', { token: alice.token, json: { name: 'My Team', path: 'my-team', description: 'd', request_access_enabled: true, lfs_enabled: false } });
      expect(r.status).to.equal(201);
      expect(r.body).to.have.all.keys(...GROUP_KEYS, 'projects', 'shared_projects');
      expect(r.body).to.deep.include({
        name: 'My Team',
        path: 'my-team',
        description: 'd',
        visibility: 'private',
        lfs_enabled: false,
        request_access_enabled: true,
        full_name: 'My Team',
        full_path: 'my-team',
        parent_id: null,
        projects: [],
        shared_projects: [],
      });
      const members = await s.get(`/groups/${r.body.id}/members`, { token: alice.token });
      expect(members.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level])).to.deep.equal([[alice.user.id, 50]]);
    });

    it('answers 401 without a user before checking parameters', async () => {
      const r = await s.post('/groups', { token: null, json: {} });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
    });

    it('checks parameters with Grape messages', async () => {
      const missing = await s.post('/groups', { token: alice.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'name is missing, path is missing' });
      const vis = await s.post('/groups', { token: alice.token, json: { name: 'x', path: 'x', visibility: 'secret', parent_id: 'p' } });
      expect(vis.body).to.deep.equal({ error: 'parent_id is invalid, visibility does not have a valid value' });
    });

    it('refuses users who may not create groups with 403', async () => {
      const { user, token } = await s.createUser('nogroups');
      await s.db('users').where({ id: user.id }).update({ can_create_group: false });
      const r = await s.post('/groups', { token, json: { name: 'x', path: 'x' } });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: '403 Forbidden' });
    });

    it('answers the model errors as GitLab does: 400 "Failed to save group {...}"', async () => {
      const taken = await s.post('/groups', { token: bob.token, json: { name: 'Other', path: 'MY-TEAM' } });
      expect(taken.status).to.equal(400);
      expect(taken.body).to.deep.equal(failed('{:path=>["has already been taken"]}'));
      const userPath = await s.post('/groups', { token: bob.token, json: { name: 'Alice', path: 'alice' } });
      expect(userPath.body).to.deep.equal(failed('{:path=>["has already been taken"]}'));
      const reserved = await s.post('/groups', { token: bob.token, json: { name: 'API', path: 'api' } });
      expect(reserved.body).to.deep.equal(failed('{:path=>["api is a reserved name"]}'));
      const format = await s.post('/groups', { token: bob.token, json: { name: 'bad name!', path: 'bad.' } });
      expect(format.body).to.deep.equal(
        failed(
          `{:name=>["can contain only letters, digits, '_', '.', dash and space."], :path=>["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."]}`,
        ),
      );
      const blank = await s.post('/groups', { token: bob.token, json: { name: ' ', path: 'blank', description: 'x'.repeat(256) } });
      expect(blank.body).to.deep.equal(failed(`{:name=>["can't be blank"], :description=>["is too long (maximum is 255 characters)"]}`));
      expect((await s.get('/groups/blank')).status).to.equal(404);
    });

    it('turns a race for the same path into the 400, never a 500', async () => {
      const replies = await Promise.all(
        Array.from({ length: 5 }, (_, i) => s.post('/groups', { token: i % 2 ? alice.token : bob.token, json: { name: `Race ${i}`, path: 'race' } })),
      );
      expect(replies.map((r) => r.status).sort()).to.deep.equal([201, 400, 400, 400, 400]);
      for (const r of replies.filter((x) => x.status === 400)) {
        expect(r.body).to.deep.equal(failed('{:path=>["has already been taken"]}'));
      }
    });

    describe('subgroups', () => {
      let top: { id: number; full_path: string };
      before(async () => {
        top = await makeGroup(s, alice.token, { name: 'Top', path: 'top', visibility: 'internal' });
      });

      it('lets owners of the parent create them', async () => {
        const r = await s.post('/groups', { token: alice.token, json: { name: 'Sub', path: 'sub', parent_id: top.id } });
        expect(r.status).to.equal(201);
        expect(r.body).to.include({ full_path: 'top/sub', full_name: 'Top / Sub', parent_id: top.id, web_url: `${s.url}/groups/top/sub` });
        const deeper = await s.post('/groups', { token: alice.token, json: { name: 'Deep', path: 'deep', parent_id: r.body.id } });
        expect(deeper.body.full_path).to.equal('top/sub/deep');
        const byAdmin = await s.post('/groups', { json: { name: 'Admin made', path: 'admin-made', parent_id: top.id } });
        expect(byAdmin.status).to.equal(201);
      });

      it('refuses masters with 403 and hides parents the user cannot see with 404', async () => {
        await addMember(s, 'groups', top.id, bob.user.id, 40);
        const master = await s.post('/groups', { token: bob.token, json: { name: 'No', path: 'no', parent_id: top.id } });
        expect(master.status).to.equal(403);
        expect(master.body).to.deep.equal({ message: '403 Forbidden' });
        const hidden = await makeGroup(s, alice.token, { name: 'Hidden', path: 'hidden' });
        const invisible = await s.post('/groups', { token: bob.token, json: { name: 'No', path: 'no', parent_id: hidden.id } });
        expect(invisible.status).to.equal(404);
        expect(invisible.body).to.deep.equal({ message: '404 Group Not Found' });
        const unknown = await s.post('/groups', { token: bob.token, json: { name: 'No', path: 'no', parent_id: 999999 } });
        expect(unknown.body).to.deep.equal({ message: '404 Group Not Found' });
      });

      it('refuses a subgroup more visible than its parent, or on a path a project holds', async () => {
        const open = await s.post('/groups', { token: alice.token, json: { name: 'Open', path: 'open', parent_id: top.id, visibility: 'public' } });
        expect(open.status).to.equal(400);
        expect(open.body).to.deep.equal(failed('{:visibility_level=>["public is not allowed since the parent group has a internal visibility."]}'));
        await makeProject(s, alice.token, { name: 'tool', namespace_id: top.id });
        const clash = await s.post('/groups', { token: alice.token, json: { name: 'Tool', path: 'Tool', parent_id: top.id } });
        expect(clash.body).to.deep.equal(failed('{:path=>["has already been taken"]}'));
        const reserved = await s.post('/groups', { token: alice.token, json: { name: 'Blob', path: 'blob', parent_id: top.id } });
        expect(reserved.body).to.deep.equal(failed('{:path=>["blob is a reserved name"]}'));
        const allowedBelow = await s.post('/groups', { token: alice.token, json: { name: 'Api', path: 'api', parent_id: top.id } });
        expect(allowedBelow.status).to.equal(201);
      });
    });
  });

  describe('PUT /groups/:id', () => {
    let s: TestServer;
    let alice: Who;
    let bob: Who;
    let team: { id: number };

    before(async () => {
      s = await bootServer();
      alice = await s.createUser('alice');
      bob = await s.createUser('bob');
      team = await makeGroup(s, alice.token, { name: 'Team', path: 'team', visibility: 'public' });
    });
    after(async () => s.close());

    it('lets the owner and admins update, answering GroupDetail', async () => {
      const r = await s.put(`/groups/${team.id}`, { token: alice.token, json: { name: 'New Team', description: 'about', request_access_enabled: true } });
      expect(r.status).to.equal(200);
      expect(r.body).to.have.all.keys(...GROUP_KEYS, 'projects', 'shared_projects');
      expect(r.body).to.include({ name: 'New Team', full_name: 'New Team', description: 'about', request_access_enabled: true, visibility: 'public' });
      const admin = await s.put(`/groups/${team.id}`, { json: { lfs_enabled: false } });
      expect(admin.status).to.equal(200);
      expect(admin.body).to.include({ lfs_enabled: false, name: 'New Team' });
    });

    it('answers 401 anonymous, 404 when invisible, 403 for non-owners', async () => {
      const anon = await s.put(`/groups/${team.id}`, { token: null, json: { name: 'x' } });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
      const stranger = await s.put(`/groups/${team.id}`, { token: bob.token, json: { name: 'x' } });
      expect(stranger.status).to.equal(403);
      expect(stranger.body).to.deep.equal({ message: '403 Forbidden' });
      await addMember(s, 'groups', team.id, bob.user.id, 40);
      expect((await s.put(`/groups/${team.id}`, { token: bob.token, json: { name: 'x' } })).status).to.equal(403);
      const hidden = await makeGroup(s, alice.token, { name: 'Hidden', path: 'hidden' });
      const invisible = await s.put(`/groups/${hidden.id}`, { token: bob.token, json: { name: 'x' } });
      expect(invisible.status).to.equal(404);
      expect(invisible.body).to.deep.equal({ message: '404 Group Not Found' });
      // Permission answers before parameter validation: nothing is said about a hidden group.
      const hiddenBadParam = await s.put(`/groups/${hidden.id}`, { token: bob.token, json: { visibility: 'nope' } });
      expect(hiddenBadParam.body).to.deep.equal({ message: '404 Group Not Found' });
      const badParam = await s.put(`/groups/${hidden.id}`, { token: alice.token, json: { visibility: 'nope' } });
      expect(badParam.status).to.equal(400);
      expect(badParam.body).to.deep.equal({ error: 'visibility does not have a valid value' });
    });

    it('renames the path: subgroups follow and repositories move on disk', async () => {
      const sub = await makeGroup(s, alice.token, { name: 'Sub', path: 'sub', parent_id: team.id, visibility: 'internal' });
      const project = await makeProject(s, alice.token, { name: 'app', namespace_id: sub.id });
      const repo = (p: string) => path.join(s.dir, 'repos', ...p.split('/'));
      expect(fs.existsSync(repo('team/sub/app.git'))).to.equal(true);
      const r = await s.put(`/groups/${team.id}`, { token: alice.token, json: { path: 'crew', name: 'Crew' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ path: 'crew', full_path: 'crew', web_url: `${s.url}/groups/crew` });
      const moved = await s.get(`/groups/${sub.id}`, { token: alice.token });
      expect(moved.body).to.include({ full_path: 'crew/sub', full_name: 'Crew / Sub' });
      expect(fs.existsSync(repo('crew/sub/app.git/HEAD'))).to.equal(true);
      expect(fs.existsSync(repo('team'))).to.equal(false);
      const byPath = await s.get('/projects/crew%2Fsub%2Fapp', { token: alice.token });
      expect(byPath.body.id).to.equal(project.id);
      expect((await s.get('/groups/team', { token: alice.token })).status).to.equal(404);
    });

    it('answers validation errors as {"message": {...}}', async () => {
      await makeGroup(s, alice.token, { name: 'Taken', path: 'taken' });
      const taken = await s.put(`/groups/${team.id}`, { token: alice.token, json: { path: 'TAKEN' } });
      expect(taken.status).to.equal(400);
      expect(taken.body).to.deep.equal({ message: { path: ['has already been taken'] } });
      await makeProject(s, alice.token, { name: 'site', namespace_id: team.id, visibility: 'internal' });
      const closing = await s.put(`/groups/${team.id}`, { token: alice.token, json: { visibility: 'private', name: '' } });
      expect(closing.status).to.equal(400);
      expect(closing.body).to.deep.equal({
        message: {
          name: ["can't be blank"],
          visibility_level: [
            'private is not allowed since this group contains projects with higher visibility.',
            'private is not allowed since there are sub-groups with higher visibility.',
          ],
        },
      });
      const unchanged = await s.get(`/groups/${team.id}`, { token: alice.token });
      expect(unchanged.body).to.include({ visibility: 'public', full_path: 'crew' });
    });

    it('keeps the visibility when the request does not name one', async () => {
      const r = await s.put(`/groups/${team.id}`, { token: alice.token, json: { description: 'still public' } });
      expect(r.body).to.include({ visibility: 'public', description: 'still public' });
    });
  });

  describe('DELETE /groups/:id', () => {
    let s: TestServer;
    let alice: Who;
    let bob: Who;

    before(async () => {
      s = await bootServer();
      alice = await s.createUser('alice');
      bob = await s.createUser('bob');
    });
    after(async () => s.close());

    it('removes the group with its subgroups, projects, repositories and memberships (204)', async () => {
      const top = await makeGroup(s, alice.token, { name: 'Doomed', path: 'doomed' });
      const sub = await makeGroup(s, alice.token, { name: 'Sub', path: 'sub', parent_id: top.id });
      const p1 = await makeProject(s, alice.token, { name: 'one', namespace_id: top.id });
      const p2 = await makeProject(s, alice.token, { name: 'two', namespace_id: sub.id });
      await addMember(s, 'groups', sub.id, bob.user.id, 30);
      await addMember(s, 'projects', p1.id, bob.user.id, 30);
      const keep = await makeGroup(s, alice.token, { name: 'Doomed too', path: 'doomed-too' });
      const kept = await makeProject(s, alice.token, { name: 'kept', namespace_id: keep.id });

      const r = await s.delete(`/groups/${top.id}`, { token: alice.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      for (const id of [top.id, sub.id]) expect((await s.get(`/groups/${id}`)).status).to.equal(404);
      for (const id of [p1.id, p2.id]) expect((await s.get(`/projects/${id}`)).status).to.equal(404);
      expect(await s.db('members').whereIn('source_id', [top.id, sub.id]).where({ source_type: 'group' })).to.deep.equal([]);
      expect(await s.db('members').where({ source_type: 'project', source_id: p1.id })).to.deep.equal([]);
      expect(await s.db('namespace_ancestors').whereIn('namespace_id', [top.id, sub.id])).to.deep.equal([]);
      expect(fs.existsSync(path.join(s.dir, 'repos', 'doomed'))).to.equal(false);
      expect(fs.existsSync(path.join(s.dir, 'repos', 'doomed-too', 'kept.git', 'HEAD'))).to.equal(true);
      expect((await s.get(`/projects/${kept.id}`)).status).to.equal(200);
    });

    it('answers 401, 404 when invisible, 403 for non-owners, and lets admins delete', async () => {
      const g = await makeGroup(s, alice.token, { name: 'Guarded', path: 'guarded', visibility: 'public' });
      const anon = await s.delete(`/groups/${g.id}`, { token: null });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
      await addMember(s, 'groups', g.id, bob.user.id, 40);
      const master = await s.delete(`/groups/${g.id}`, { token: bob.token });
      expect(master.status).to.equal(403);
      expect(master.body).to.deep.equal({ message: '403 Forbidden' });
      const hidden = await makeGroup(s, alice.token, { name: 'Hidden', path: 'hidden' });
      const invisible = await s.delete(`/groups/${hidden.id}`, { token: bob.token });
      expect(invisible.status).to.equal(404);
      expect(invisible.body).to.deep.equal({ message: '404 Group Not Found' });
      expect((await s.delete(`/groups/${hidden.id}`)).status).to.equal(204);
    });

    it('answers 412 when If-Unmodified-Since is older than the group', async () => {
      const g = await makeGroup(s, alice.token, { name: 'Stale', path: 'stale' });
      const stale = await s.delete(`/groups/${g.id}`, { token: alice.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(stale.status).to.equal(412);
      expect(stale.body).to.deep.equal({ message: '412 Precondition Failed' });
      expect((await s.get(`/groups/${g.id}`)).status).to.equal(200);
      const fresh = await s.delete(`/groups/${g.id}`, { token: alice.token, headers: { 'If-Unmodified-Since': new Date(Date.now() + 60000).toUTCString() } });
      expect(fresh.status).to.equal(204);
    });
  });
});
