// Projects API: create, read, list filters and pagination, update, delete, archive, star,
// share, users, custom attributes, and the visibility matrix.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { insertMember } from '../../src/services/members/members.js';
import { createNamespace } from '../../src/services/groups/namespaces.js';
import { GUEST, OWNER } from '../../src/policy/levels.js';

describe('Projects API', () => {
  let s: TestServer;
  let alice: { user: { id: number }; token: string };
  let bob: { user: { id: number }; token: string };

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
  });
  after(async () => s.close());

  describe('POST /projects', () => {
    it('creates a project with a bare repository and answers the full Project entity', async () => {
      const r = await s.post('/projects', {
        token: alice.token,
        json: { name: 'Hello World', description: 'first', visibility: 'public', tag_list: ['z', 'a'], merge_method: 'ff', issues_enabled: false },
      });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({
        name: 'Hello World',
        path: 'hello-world',
        path_with_namespace: 'alice/hello-world',
        name_with_namespace: 'alice / Hello World',
        description: 'first',
        visibility: 'public',
        merge_method: 'ff',
        issues_enabled: false,
        default_branch: null,
        creator_id: alice.user.id,
        import_status: 'none',
      });
      expect(r.body.tag_list).to.deep.equal(['a', 'z']);
      expect(r.body.http_url_to_repo).to.equal(`${s.url}/alice/hello-world.git`);
      expect(r.body.web_url).to.equal(`${s.url}/alice/hello-world`);
      expect(r.body.owner).to.include({ id: alice.user.id, username: 'alice' });
      expect(r.body.namespace).to.deep.equal({ id: r.body.namespace.id, name: 'alice', path: 'alice', kind: 'user', full_path: 'alice', parent_id: null });
      expect(r.body._links).to.have.keys('self', 'merge_requests', 'repo_branches', 'labels', 'events', 'members');
      expect(r.body).to.have.property('runners_token').that.is.a('string');
      expect(r.body).to.not.have.property('permissions');
      expect(r.body).to.not.have.property('open_issues_count'); // issues disabled
      expectSchema([r.body].map(basicOnly), 'public_api/v4/projects.json');

      const repo = path.join(s.dir, 'repos', 'alice', 'hello-world.git');
      expect(fs.existsSync(path.join(repo, 'HEAD'))).to.equal(true);
      // The real git agrees that it is a valid, empty bare repository.
      expect(execFileSync('git', ['--git-dir', repo, 'rev-parse', '--is-bare-repository']).toString().trim()).to.equal('true');
    });

    it('takes the name from the path and the path from the name', async () => {
      const byPath = await s.post('/projects', { token: alice.token, form: { path: 'only-path' } });
      expect(byPath.status).to.equal(201);
      expect(byPath.body).to.include({ name: 'only-path', path: 'only-path', visibility: 'private' });
      const byName = await s.post('/projects', { token: alice.token, form: { name: 'Ünïcode  Name!' } });
      expect(byName.status).to.equal(400);
      expect(byName.body.message.name[0]).to.match(/can contain only letters/);
      const ok = await s.post('/projects', { token: alice.token, form: { name: 'Spaced  Out_Name' } });
      expect(ok.body.path).to.equal('spaced-out_name');
    });

    it('answers 401 without a user, before validating parameters', async () => {
      const r = await s.post('/projects', { token: null, json: {} });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
    });

    it('needs a name or a path', async () => {
      const r = await s.post('/projects', { token: alice.token, json: { description: 'x' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'name, path are missing, at least one parameter must be provided' });
    });

    it('rejects invalid parameter values with Grape messages', async () => {
      const vis = await s.post('/projects', { token: alice.token, json: { name: 'v', visibility: 'secret' } });
      expect(vis.status).to.equal(400);
      expect(vis.body).to.deep.equal({ error: 'visibility does not have a valid value' });
      const bool = await s.post('/projects', { token: alice.token, json: { name: 'v', issues_enabled: 'maybe' } });
      expect(bool.body).to.deep.equal({ error: 'issues_enabled is invalid' });
      const mm = await s.post('/projects', { token: alice.token, json: { name: 'v', merge_method: 'squash', namespace_id: 'x' } });
      expect(mm.body).to.deep.equal({ error: 'namespace_id is invalid, merge_method does not have a valid value' });
    });

    it('refuses a name or path taken in the namespace, and a bad path', async () => {
      const dup = await s.post('/projects', { token: alice.token, json: { name: 'hello world', path: 'HELLO-WORLD' } });
      expect(dup.status).to.equal(400);
      expect(dup.body).to.deep.equal({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
      const bad = await s.post('/projects', { token: alice.token, json: { path: 'bad.git' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({
        message: { path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"] },
      });
      const traversal = await s.post('/projects', { token: alice.token, json: { path: '../escape' } });
      expect(traversal.status).to.equal(400);
      expect(fs.existsSync(path.join(s.dir, 'escape.git'))).to.equal(false);
    });

    it('refuses a namespace the user may not create projects in', async () => {
      const bobNs = await s.db('namespaces').where({ kind: 'user', owner_id: bob.user.id }).first();
      const r = await s.post('/projects', { token: alice.token, json: { name: 'intruder', namespace_id: bobNs.id } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { namespace: ['is not valid'] } });
      const missing = await s.post('/projects', { token: alice.token, json: { name: 'intruder', namespace_id: 99999 } });
      expect(missing.body).to.deep.equal({ message: { namespace: ['is not valid'] } });
    });

    it('creates projects in a group for its masters, not more visible than the group', async () => {
      const group = await s.db.transaction((tx) => createNamespace(tx, { kind: 'group', name: 'Team', path: 'team', visibilityLevel: 10 }));
      await insertMember(s.db, { sourceType: 'group', sourceId: group.id, userId: alice.user.id, accessLevel: OWNER });
      const r = await s.post('/projects', { token: alice.token, json: { name: 'tool', namespace_id: group.id, visibility: 'internal' } });
      expect(r.status).to.equal(201);
      expect(r.body.path_with_namespace).to.equal('team/tool');
      expect(r.body).to.not.have.property('owner');
      const tooOpen = await s.post('/projects', { token: alice.token, json: { name: 'open', namespace_id: group.id, visibility: 'public' } });
      expect(tooOpen.status).to.equal(400);
      expect(tooOpen.body).to.deep.equal({ message: { visibility_level: ['public is not allowed in a internal group.'] } });
      const outsider = await s.post('/projects', { token: bob.token, json: { name: 'x', namespace_id: group.id } });
      expect(outsider.body).to.deep.equal({ message: { namespace: ['is not valid'] } });
    });

    it('enforces the personal project limit with 403', async () => {
      const { user, token } = await s.createUser('limited');
      await s.db('users').where({ id: user.id }).update({ projects_limit: 1 });
      expect((await s.post('/projects', { token, json: { name: 'one' } })).status).to.equal(201);
      const r = await s.post('/projects', { token, json: { name: 'two' } });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: ['Your project limit is 1 projects! Please contact your administrator to increase it'] });
    });

    it('answers a clear 400 for an import_url of another protocol or no URL at all', async () => {
      const r = await s.post('/projects', { token: alice.token, json: { name: 'imported', import_url: 'file:///etc/x.git' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { import_url: ['is blocked: Only allowed protocols are http, https, git'] } });
      const bad = await s.post('/projects', { token: alice.token, json: { name: 'imported', import_url: 'not a url' } });
      expect(bad.body).to.deep.equal({ message: { import_url: ['must be a valid URL'] } });
      expect((await s.get('/projects/alice%2Fimported')).status).to.equal(404);
    });
  });

  describe('POST /projects/user/:user_id', () => {
    it('lets an admin create a project for another user', async () => {
      const r = await s.post(`/projects/user/${bob.user.id}`, { json: { name: 'gift', default_branch: 'main' } });
      expect(r.status).to.equal(201);
      expect(r.body.path_with_namespace).to.equal('bob/gift');
      expect(r.body.creator_id).to.equal(bob.user.id);
      const head = fs.readFileSync(path.join(s.dir, 'repos', 'bob', 'gift.git', 'HEAD'), 'utf8');
      expect(head.trim()).to.equal('ref: refs/heads/main');
      const member = await s.get(`/projects/${r.body.id}`, { token: bob.token });
      expect(member.body.permissions.project_access.access_level).to.equal(40);
    });

    it('is admin-only, needs a name and a known user', async () => {
      const notAdmin = await s.post(`/projects/user/${bob.user.id}`, { token: alice.token, json: { name: 'x' } });
      expect(notAdmin.status).to.equal(403);
      expect(notAdmin.body).to.deep.equal({ message: '403 Forbidden' });
      const anon = await s.post(`/projects/user/${bob.user.id}`, { token: null, json: { name: 'x' } });
      expect(anon.status).to.equal(401);
      const noName = await s.post(`/projects/user/${bob.user.id}`, { json: {} });
      expect(noName.body).to.deep.equal({ error: 'name is missing' });
      const unknown = await s.post('/projects/user/987654', { json: { name: 'x' } });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal({ message: '404 User Not Found' });
    });
  });

  describe('GET /projects/:id', () => {
    it('finds a project by id or URL-encoded path, case-insensitively', async () => {
      const byPath = await s.get('/projects/alice%2Fhello-world', { token: alice.token });
      expect(byPath.status).to.equal(200);
      const byId = await s.get(`/projects/${byPath.body.id}`, { token: alice.token });
      expect(byId.body.id).to.equal(byPath.body.id);
      const upper = await s.get('/projects/ALICE%2FHello-World', { token: alice.token });
      expect(upper.body.id).to.equal(byPath.body.id);
      expect(byId.body.permissions).to.deep.equal({ project_access: { access_level: 40, notification_level: 3 }, group_access: null });
      expect(byId.body.runners_token).to.be.a('string');
    });

    it('shows anonymous users the basic details of a public project', async () => {
      const r = await s.get('/projects/alice%2Fhello-world', { token: null });
      expect(r.status).to.equal(200);
      expectSchema([r.body], 'public_api/v4/projects.json');
      expect(r.body).to.not.have.property('permissions');
    });

    it('hides runners_token from non-masters and answers 404 for unknown projects', async () => {
      const other = await s.get('/projects/alice%2Fhello-world', { token: bob.token });
      expect(other.status).to.equal(200);
      expect(other.body).to.not.have.property('runners_token');
      expect(other.body.permissions).to.deep.equal({ project_access: null, group_access: null });
      for (const id of ['99999', 'nobody%2Fnothing', 'no-slash']) {
        const r = await s.get(`/projects/${id}`);
        expect(r.status, id).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
      }
    });

    it('adds statistics on request', async () => {
      const r = await s.get('/projects/alice%2Fhello-world', { token: alice.token, query: { statistics: true } });
      expect(r.body.statistics).to.have.keys('commit_count', 'storage_size', 'repository_size', 'lfs_objects_size', 'job_artifacts_size');
    });
  });

  describe('visibility matrix', () => {
    const ids: Record<string, number> = {};
    let guest: { user: { id: number }; token: string };
    let external: { user: { id: number }; token: string };

    before(async () => {
      const owner = await s.createUser('matrixowner');
      guest = await s.createUser('matrixguest');
      external = await s.createUser('matrixexternal', { external: true });
      for (const visibility of ['private', 'internal', 'public']) {
        const r = await s.post('/projects', { token: owner.token, json: { name: `m-${visibility}`, visibility } });
        ids[visibility] = r.body.id;
        await insertMember(s.db, { sourceType: 'project', sourceId: r.body.id, userId: guest.user.id, accessLevel: GUEST });
      }
    });

    const expected: Record<string, Record<string, boolean>> = {
      anonymous: { private: false, internal: false, public: true },
      'non-member': { private: false, internal: true, public: true },
      external: { private: false, internal: false, public: true },
      guest: { private: true, internal: true, public: true },
      admin: { private: true, internal: true, public: true },
    };

    for (const [who, rules] of Object.entries(expected)) {
      for (const [visibility, visible] of Object.entries(rules)) {
        it(`${who} ${visible ? 'sees' : 'does not see'} a ${visibility} project`, async () => {
          const token = { anonymous: null, 'non-member': bob.token, external: external.token, guest: guest.token, admin: undefined }[who];
          const single = await s.get(`/projects/${ids[visibility]}`, { token });
          if (visible) expect(single.status).to.equal(200);
          else {
            expect(single.status).to.equal(404);
            expect(single.body).to.deep.equal({ message: '404 Project Not Found' });
          }
          const list = await s.get('/projects', { token, query: { search: `m-${visibility}` } });
          expect(list.status).to.equal(200);
          expect(list.body.map((p: { id: number }) => p.id).includes(ids[visibility])).to.equal(visible);
        });
      }
    }
  });

  describe('GET /projects', () => {
    before(async () => {
      const { token } = await s.createUser('lister');
      for (let i = 0; i < 25; i++) {
        await s.post('/projects', { token, json: { name: `listed-${String(i).padStart(2, '0')}`, visibility: i % 2 ? 'public' : 'internal' } });
      }
    });

    it('pages with GitLab headers and Link relations that include the filters', async () => {
      const r = await s.get('/projects', { token: alice.token, query: { search: 'listed-', per_page: 10, page: 2 } });
      expect(r.status).to.equal(200);
      expect(r.body).to.have.length(10);
      expect(r.headers.get('x-total')).to.equal('25');
      expect(r.headers.get('x-total-pages')).to.equal('3');
      expect(r.headers.get('x-per-page')).to.equal('10');
      expect(r.headers.get('x-page')).to.equal('2');
      expect(r.headers.get('x-next-page')).to.equal('3');
      expect(r.headers.get('x-prev-page')).to.equal('1');
      const link = r.headers.get('link')!;
      const rels = [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2], m[1]]);
      expect(rels.map((x) => x[0])).to.deep.equal(['prev', 'next', 'first', 'last']);
      const next = new URL(rels[1][1]);
      expect(next.searchParams.get('page')).to.equal('3');
      expect(next.searchParams.get('search')).to.equal('listed-');
      const following = await s.get(next.pathname + next.search, { token: alice.token });
      expect(following.body).to.have.length(5);
      expect(following.headers.get('x-next-page')).to.equal('');
    });

    it('walks every page without duplicates or gaps (default order created_at desc)', async () => {
      const seen: number[] = [];
      for (let page = 1; page <= 5; page++) {
        const r = await s.get('/projects', { token: alice.token, query: { search: 'listed-', per_page: 7, page } });
        seen.push(...r.body.map((p: { id: number }) => p.id));
      }
      expect(seen).to.have.length(25);
      expect(new Set(seen).size).to.equal(25);
      expect(seen).to.deep.equal([...seen].sort((a, b) => b - a));
    });

    it('caps per_page at 100, falls back on bad sizes, answers past the end with []', async () => {
      expect((await s.get('/projects', { query: { per_page: 1000 } })).headers.get('x-per-page')).to.equal('100');
      expect((await s.get('/projects', { query: { per_page: 0 } })).headers.get('x-per-page')).to.equal('20');
      expect((await s.get('/projects', { query: { per_page: -5 } })).headers.get('x-per-page')).to.equal('20');
      const past = await s.get('/projects', { query: { page: 999 } });
      expect(past.body).to.deep.equal([]);
      expect(past.headers.get('x-prev-page')).to.equal('');
      const bad = await s.get('/projects', { query: { page: 'two' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'page is invalid' });
    });

    it('answers an empty list with X-Total 0 and first/last links', async () => {
      const r = await s.get('/projects', { query: { search: 'no-such-project-anywhere' } });
      expect(r.body).to.deep.equal([]);
      expect(r.headers.get('x-total')).to.equal('0');
      expect(r.headers.get('x-total-pages')).to.equal('1');
      expect(r.headers.get('link')).to.match(/rel="first".*rel="last"/);
    });

    it('orders by name, path, id and the dates, both ways', async () => {
      for (const order of ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at']) {
        const asc = await s.get('/projects', { query: { search: 'listed-', order_by: order, sort: 'asc', per_page: 100 } });
        const names = asc.body.map((p: { name: string }) => p.name);
        expect(names, order).to.deep.equal([...names].sort());
        const desc = await s.get('/projects', { query: { search: 'listed-', order_by: order, sort: 'desc', per_page: 100 } });
        expect(
          desc.body.map((p: { name: string }) => p.name),
          order,
        ).to.deep.equal([...names].reverse());
      }
      const bad = await s.get('/projects', { query: { order_by: 'stars' } });
      expect(bad.body).to.deep.equal({ error: 'order_by does not have a valid value' });
    });

    it('filters by visibility, search, simple and statistics', async () => {
      const pub = await s.get('/projects', { query: { search: 'listed-', visibility: 'public', per_page: 100 } });
      expect(pub.body).to.have.length(12);
      expect(pub.body.every((p: { visibility: string }) => p.visibility === 'public')).to.equal(true);
      const simple = await s.get('/projects', { query: { search: 'listed-', simple: true, per_page: 100 } });
      expectSchema(simple.body, 'public_api/v4/projects.json');
      const stats = await s.get('/projects', { query: { search: 'listed-01', statistics: true } });
      expect(stats.body[0].statistics.commit_count).to.equal(0);
      const anon = await s.get('/projects', { token: null, query: { search: 'listed-', per_page: 100 } });
      expect(anon.body).to.have.length(12);
      expectSchema(anon.body, 'public_api/v4/projects.json');
    });

    it('filters by owned, membership, starred and the feature flags', async () => {
      const owned = await s.get('/projects', { token: alice.token, query: { owned: true, per_page: 100 } });
      expect(owned.body.length).to.be.greaterThan(0);
      expect(owned.body.every((p: { namespace: { full_path: string } }) => ['alice', 'team'].includes(p.namespace.full_path))).to.equal(true);
      const membership = await s.get('/projects', { token: bob.token, query: { membership: true, per_page: 100 } });
      expect(membership.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).to.include('bob/gift');
      expect(membership.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).to.not.include('alice/hello-world');
      const noIssues = await s.get('/projects', { token: alice.token, query: { with_issues_enabled: true, owned: true, per_page: 100 } });
      expect(noIssues.body.map((p: { path: string }) => p.path)).to.not.include('hello-world');
      const anonOwned = await s.get('/projects', { token: null, query: { owned: true } });
      expect(anonOwned.body).to.deep.equal([]);

      const star = await s.post('/projects/alice%2Fhello-world/star', { token: bob.token });
      expect(star.status).to.equal(201);
      expect(star.body.star_count).to.equal(1);
      const again = await s.post('/projects/alice%2Fhello-world/star', { token: bob.token });
      expect(again.status).to.equal(304);
      const starred = await s.get('/projects', { token: bob.token, query: { starred: true } });
      expect(starred.body.map((p: { path: string }) => p.path)).to.deep.equal(['hello-world']);
      const unstar = await s.post('/projects/alice%2Fhello-world/unstar', { token: bob.token });
      expect(unstar.status).to.equal(201);
      expect(unstar.body.star_count).to.equal(0);
      expect((await s.post('/projects/alice%2Fhello-world/unstar', { token: bob.token })).status).to.equal(304);
      expect((await s.post('/projects/alice%2Fhello-world/star', { token: null })).status).to.equal(401);
    });

    it('hides archived projects unless archived=true', async () => {
      const created = await s.post('/projects', { token: alice.token, json: { name: 'old-stuff', visibility: 'public' } });
      const archived = await s.post(`/projects/${created.body.id}/archive`, { token: alice.token });
      expect(archived.status).to.equal(201);
      expect(archived.body.archived).to.equal(true);
      const hidden = await s.get('/projects', { query: { search: 'old-stuff' } });
      expect(hidden.body).to.deep.equal([]);
      const shown = await s.get('/projects', { query: { search: 'old-stuff', archived: true } });
      expect(shown.body).to.have.length(1);
      const forbidden = await s.post(`/projects/${created.body.id}/unarchive`, { token: bob.token });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body).to.deep.equal({ message: '403 Forbidden' });
      const back = await s.post(`/projects/${created.body.id}/unarchive`, { token: alice.token });
      expect(back.body.archived).to.equal(false);
    });

    it('filters by custom attributes for admins only', async () => {
      const id = (await s.get('/projects/alice%2Fhello-world')).body.id;
      const put = await s.put(`/projects/${id}/custom_attributes/team`, { json: { value: 'red' } });
      expect(put.status).to.equal(200);
      expect(put.body).to.deep.equal({ key: 'team', value: 'red' });
      const filtered = await s.get('/projects', { query: { 'custom_attributes[team]': 'red', with_custom_attributes: true } });
      expect(filtered.body.map((p: { id: number }) => p.id)).to.deep.equal([id]);
      expect(filtered.body[0].custom_attributes).to.deep.equal([{ key: 'team', value: 'red' }]);
      const ignored = await s.get('/projects', { token: alice.token, query: { 'custom_attributes[team]': 'red', per_page: 100 } });
      expect(ignored.body.length).to.be.greaterThan(1);
      expect(ignored.body[0]).to.not.have.property('custom_attributes');

      expect((await s.get(`/projects/${id}/custom_attributes`)).body).to.deep.equal([{ key: 'team', value: 'red' }]);
      expect((await s.get(`/projects/${id}/custom_attributes/team`)).body).to.deep.equal({ key: 'team', value: 'red' });
      const denied = await s.get(`/projects/${id}/custom_attributes`, { token: alice.token });
      expect(denied.status).to.equal(403);
      expect((await s.delete(`/projects/${id}/custom_attributes/team`)).status).to.equal(204);
      const gone = await s.get(`/projects/${id}/custom_attributes/team`);
      expect(gone.status).to.equal(404);
      expect(gone.body).to.deep.equal({ message: '404 Custom Attribute Not Found' });
      const noValue = await s.put(`/projects/${id}/custom_attributes/team`, { json: {} });
      expect(noValue.body).to.deep.equal({ error: 'value is missing' });
    });
  });

  describe('GET /users/:user_id/projects and /groups/:id/projects', () => {
    it("lists a user's personal projects by id or username", async () => {
      const byName = await s.get('/users/alice/projects', { token: alice.token, query: { per_page: 100 } });
      expect(byName.status).to.equal(200);
      expect(byName.body.every((p: { namespace: { path: string } }) => p.namespace.path === 'alice')).to.equal(true);
      const byId = await s.get(`/users/${alice.user.id}/projects`, { token: alice.token, query: { per_page: 100 } });
      expect(byId.body.map((p: { id: number }) => p.id)).to.deep.equal(byName.body.map((p: { id: number }) => p.id));
      const anon = await s.get('/users/alice/projects', { token: null, query: { per_page: 100 } });
      expect(anon.body.every((p: { id: number }) => byName.body.some((q: { id: number }) => q.id === p.id))).to.equal(true);
      expect(anon.body.length).to.be.lessThan(byName.body.length);
      const missing = await s.get('/users/nobody-at-all/projects');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 User Not Found' });
    });

    it("lists a group's projects, and 404s a group the user cannot see", async () => {
      const r = await s.get('/groups/team/projects', { token: alice.token });
      expect(r.status).to.equal(200);
      expect(r.body.map((p: { path: string }) => p.path)).to.deep.equal(['tool']);
      const missing = await s.get('/groups/nope/projects');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Group Not Found' });
    });
  });

  describe('PUT /projects/:id', () => {
    it('updates settings, renames and moves the repository', async () => {
      const created = await s.post('/projects', { token: alice.token, json: { name: 'movable' } });
      const id = created.body.id;
      const r = await s.put(`/projects/${id}`, {
        token: alice.token,
        json: { description: 'moved', path: 'moved-here', name: 'Moved', public_builds: false, tag_list: ['x'], only_allow_merge_if_pipeline_succeeds: true },
      });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ description: 'moved', path: 'moved-here', name: 'Moved', public_jobs: false, only_allow_merge_if_pipeline_succeeds: true });
      expect(r.body.tag_list).to.deep.equal(['x']);
      expect(fs.existsSync(path.join(s.dir, 'repos', 'alice', 'moved-here.git', 'HEAD'))).to.equal(true);
      expect(fs.existsSync(path.join(s.dir, 'repos', 'alice', 'movable.git'))).to.equal(false);
      expect((await s.get('/projects/alice%2Fmoved-here', { token: alice.token })).body.id).to.equal(id);
    });

    it('answers 400 when nothing is given, and for a taken path, leaving the repository in place', async () => {
      const id = (await s.get('/projects/alice%2Fmoved-here', { token: alice.token })).body.id;
      const none = await s.put(`/projects/${id}`, { token: alice.token, json: {} });
      expect(none.status).to.equal(400);
      expect(none.body.error).to.match(/^jobs_enabled, .* are missing, at least one parameter must be provided$/);
      const taken = await s.put(`/projects/${id}`, { token: alice.token, json: { path: 'hello-world' } });
      expect(taken.status).to.equal(400);
      expect(taken.body).to.deep.equal({ message: { path: ['has already been taken'] } });
      expect(fs.existsSync(path.join(s.dir, 'repos', 'alice', 'moved-here.git', 'HEAD'))).to.equal(true);
      const branch = await s.put(`/projects/${id}`, { token: alice.token, json: { default_branch: 'nope' } });
      expect(branch.status).to.equal(400);
      expect(branch.body).to.deep.equal({ message: 'Could not set the default branch' });
    });

    it('needs master access; renaming and visibility need the owner', async () => {
      const id = (await s.get('/projects/alice%2Fhello-world', { token: alice.token })).body.id;
      const outsider = await s.put(`/projects/${id}`, { token: bob.token, json: { description: 'x' } });
      expect(outsider.status).to.equal(403);
      expect(outsider.body).to.deep.equal({ message: '403 Forbidden' });
      const { user: m, token: masterToken } = await s.createUser('amaster');
      await insertMember(s.db, { sourceType: 'project', sourceId: id, userId: m.id, accessLevel: 40 });
      expect((await s.put(`/projects/${id}`, { token: masterToken, json: { description: 'by master' } })).status).to.equal(200);
      const rename = await s.put(`/projects/${id}`, { token: masterToken, json: { name: 'renamed' } });
      expect(rename.status).to.equal(403);
      const vis = await s.put(`/projects/${id}`, { token: masterToken, json: { visibility: 'private' } });
      expect(vis.status).to.equal(403);
      const anon = await s.put(`/projects/${id}`, { token: null, json: { description: 'x' } });
      expect(anon.status).to.equal(401);
      const hidden = await s.put('/projects/bob%2Fgift', { token: alice.token, json: { description: 'x' } });
      expect(hidden.status).to.equal(404);
      expect(hidden.body).to.deep.equal({ message: '404 Project Not Found' });
    });
  });

  describe('sharing and users', () => {
    it('shares a project with a group and lists the team', async () => {
      const group = await s.db('namespaces').where({ path: 'team' }).first();
      const id = (await s.get('/projects/alice%2Fhello-world')).body.id;
      const r = await s.post(`/projects/${id}/share`, { token: alice.token, json: { group_id: group.id, group_access: 30 } });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({ project_id: id, group_id: group.id, group_access: 30, expires_at: null });
      const dup = await s.post(`/projects/${id}/share`, { token: alice.token, json: { group_id: group.id, group_access: 30 } });
      expect(dup.status).to.equal(409);
      const bad = await s.post(`/projects/${id}/share`, { token: alice.token, json: { group_id: group.id, group_access: 50 } });
      expect(bad.body).to.deep.equal({ error: 'group_access does not have a valid value' });
      const noGroup = await s.post(`/projects/${id}/share`, { token: alice.token, json: { group_id: 99999, group_access: 30 } });
      expect(noGroup.status).to.equal(404);
      expect(noGroup.body).to.deep.equal({ message: '404 Group Not Found' });
      const shown = await s.get(`/projects/${id}`, { token: alice.token });
      expect(shown.body.shared_with_groups).to.deep.equal([{ group_id: group.id, group_name: 'Team', group_access_level: 30 }]);

      const users = await s.get(`/projects/${id}/users`, { token: alice.token });
      expect(users.body.map((u: { username: string }) => u.username)).to.include.members(['alice', 'amaster']);
      expectSchema(users.body, 'public_api/v4/user/basics.json');
      const searched = await s.get(`/projects/${id}/users`, { token: alice.token, query: { search: 'amast' } });
      expect(searched.body.map((u: { username: string }) => u.username)).to.deep.equal(['amaster']);

      expect((await s.delete(`/projects/${id}/share/${group.id}`, { token: alice.token })).status).to.equal(204);
      const again = await s.delete(`/projects/${id}/share/${group.id}`, { token: alice.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 Group Link Not Found' });
    });
  });

  describe('DELETE /projects/:id', () => {
    it('needs the owner, answers 202 and removes rows and repository', async () => {
      const created = await s.post('/projects', { token: alice.token, json: { name: 'doomed' } });
      const id = created.body.id;
      const outsider = await s.delete(`/projects/${id}`, { token: bob.token });
      expect(outsider.status).to.equal(404);
      const { user: m, token: masterToken } = await s.createUser('dmaster');
      await insertMember(s.db, { sourceType: 'project', sourceId: id, userId: m.id, accessLevel: 40 });
      const master = await s.delete(`/projects/${id}`, { token: masterToken });
      expect(master.status).to.equal(403);
      const r = await s.delete(`/projects/${id}`, { token: alice.token });
      expect(r.status).to.equal(202);
      expect(r.body).to.deep.equal({ message: '202 Accepted' });
      expect((await s.get(`/projects/${id}`)).status).to.equal(404);
      expect(fs.existsSync(path.join(s.dir, 'repos', 'alice', 'doomed.git'))).to.equal(false);
      expect(await s.db('members').where({ source_type: 'project', source_id: id })).to.deep.equal([]);
      // The name is free again.
      expect((await s.post('/projects', { token: alice.token, json: { name: 'doomed' } })).status).to.equal(201);
    });
  });
});

/** The BasicProjectDetails keys of a full Project, for the projects.json schema. */
function basicOnly(p: Record<string, unknown>) {
  const keys = [
    'id',
    'description',
    'name',
    'name_with_namespace',
    'path',
    'path_with_namespace',
    'created_at',
    'default_branch',
    'tag_list',
    'ssh_url_to_repo',
    'http_url_to_repo',
    'web_url',
    'avatar_url',
    'star_count',
    'forks_count',
    'last_activity_at',
  ];
  return Object.fromEntries(keys.map((k) => [k, p[k]]));
}
