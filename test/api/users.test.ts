// The users API: /user, listing and showing users, and the admin-only create, update, delete,
// block and unblock, checked against GitLab 10.8's behaviour and JSON schemas.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { createNamespace } from '../../src/services/groups/namespaces.js';
import { insertMember } from '../../src/services/members/members.js';
import type { NamespaceRow, UserRow } from '../../src/store/rows.js';

const USER_KEYS = ['id', 'name', 'username', 'state', 'avatar_url', 'web_url', 'created_at', 'bio', 'location', 'skype', 'linkedin', 'twitter', 'website_url', 'organization'];
const PUBLIC_KEYS = [
  ...USER_KEYS,
  'last_sign_in_at',
  'confirmed_at',
  'last_activity_on',
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
  'external',
];
const FORMAT_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

async function seedGroup(s: TestServer, groupPath: string, members: [number, number][] = [], parent?: NamespaceRow): Promise<NamespaceRow> {
  const group = await s.db.transaction((tx) => createNamespace(tx, { kind: 'group', name: groupPath, path: groupPath, parent }));
  for (const [userId, level] of members) await insertMember(s.db, { sourceType: 'group', sourceId: group.id, userId, accessLevel: level });
  return group;
}

/** A project row in a namespace, with its bare repository on disk. */
async function seedProject(s: TestServer, ns: NamespaceRow, projectPath: string): Promise<number> {
  const stamp = new Date().toISOString();
  const [row] = await s
    .db('projects')
    .insert({
      namespace_id: ns.id,
      name: projectPath,
      path: projectPath,
      runners_token: `rt-${projectPath}-${ns.id}`,
      created_at: stamp,
      updated_at: stamp,
      last_activity_at: stamp,
    })
    .returning('id');
  await s.deps.repos.create(`${ns.full_path}/${projectPath}`);
  return typeof row === 'object' ? row.id : row;
}

function personalNamespace(s: TestServer, user: { id: number }): Promise<NamespaceRow> {
  return s.db('namespaces').where({ kind: 'user', owner_id: user.id }).first();
}

const newUser = (username: string, extra: Record<string, unknown> = {}) => ({
  email: `${username}@example.com`,
  username,
  name: `Name of ${username}`,
  password: 'secret-password',
  ...extra,
});

describe('Users API', () => {
  let s: TestServer;
  let alice: { user: UserRow; token: string };
  let bob: { user: UserRow; token: string };

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
  });
  after(async () => s.close());

  describe('GET /user', () => {
    it('needs a user', async () => {
      const r = await s.get('/user', { token: null });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
    });

    it('shows a regular user themselves as UserPublic, without is_admin', async () => {
      const r = await s.get('/user', { token: alice.token });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/user/public.json');
      expect(r.body).to.have.all.keys(...PUBLIC_KEYS);
      expect(r.body).to.include({ id: alice.user.id, username: 'alice', email: 'alice@example.com', state: 'active' });
      expect(r.body.web_url).to.equal(`${s.url}/alice`);
      expect(r.body.identities).to.deep.equal([]);
    });

    it('adds is_admin for an admin (UserWithAdmin)', async () => {
      const r = await s.get('/user');
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/user/admin.json');
      expectSchema(r.body, 'public_api/v4/user/login.json');
      expect(r.body).to.have.all.keys(...PUBLIC_KEYS, 'is_admin');
      expect(r.body.is_admin).to.equal(true);
      expect(r.body.username).to.equal('root');
    });

    it('counts personal projects against the projects limit for can_create_project', async () => {
      const carol = await s.createUser('carol');
      await s.db('users').where({ id: carol.user.id }).update({ projects_limit: 1 });
      expect((await s.get('/user', { token: carol.token })).body.can_create_project).to.equal(true);
      await seedProject(s, await personalNamespace(s, carol.user), 'only-one');
      const r = await s.get('/user', { token: carol.token });
      expect(r.body.projects_limit).to.equal(1);
      expect(r.body.can_create_project).to.equal(false);
    });
  });

  describe('GET /users', () => {
    let hidden: UserRow;
    before(async () => {
      hidden = (await s.createUser('outsider', { external: true })).user;
    });

    it('refuses the anonymous a list without a username', async () => {
      for (const query of [{}, { username: '' }, { search: 'alice' }] as Record<string, string>[]) {
        const r = await s.get('/users', { token: null, query });
        expect(r.status).to.equal(403);
        expect(r.body).to.deep.equal({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
      }
    });

    it('finds one user by exact username for the anonymous', async () => {
      const r = await s.get('/users', { token: null, query: { username: 'alice' } });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/user/basics.json');
      expect(r.body).to.have.length(1);
      expect(r.body[0]).to.have.all.keys('id', 'name', 'username', 'state', 'avatar_url', 'web_url');
      expect(r.body[0].id).to.equal(alice.user.id);
      // GitLab's username filter is an exact, case-sensitive match.
      expect((await s.get('/users', { token: null, query: { username: 'ALICE' } })).body).to.deep.equal([]);
      expect((await s.get('/users', { token: null, query: { username: 'nobody' } })).body).to.deep.equal([]);
    });

    it('lists UserBasic to users, newest first, without external users', async () => {
      const r = await s.get('/users', { token: alice.token, query: { per_page: 100 } });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/user/basics.json');
      const ids = r.body.map((u: { id: number }) => u.id);
      expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
      expect(ids).to.include.members([1, alice.user.id, bob.user.id]);
      expect(ids).to.not.include(hidden.id);
      expect(r.body[0]).to.not.have.property('is_admin');
      expect(r.body[0]).to.not.have.property('email');
    });

    it('lists UserWithAdmin to admins, external users included', async () => {
      const r = await s.get('/users', { query: { per_page: 100 } });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/user/admins.json');
      expect(r.body.map((u: { id: number }) => u.id)).to.include(hidden.id);
      expect(r.body.find((u: { id: number }) => u.id === 1).is_admin).to.equal(true);
    });

    it('filters external users for admins only', async () => {
      const r = await s.get('/users', { query: { external: true } });
      expect(r.body.map((u: { username: string }) => u.username)).to.deep.equal(['outsider']);
      expect(r.body[0].external).to.equal(true);

      const user = await s.get('/users', { token: alice.token, query: { external: true } });
      expect(user.status).to.equal(403);
      expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      const anonymous = await s.get('/users', { token: null, query: { external: true, username: 'alice' } });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      // external=false is no filter at all, and needs no admin.
      expect((await s.get('/users', { token: alice.token, query: { external: false } })).status).to.equal(200);
    });

    it('filters blocked and active users', async () => {
      const { user } = await s.createUser('frozen');
      await s.db('users').where({ id: user.id }).update({ state: 'blocked' });
      const blocked = await s.get('/users', { token: alice.token, query: { blocked: true } });
      expect(blocked.body.map((u: { username: string }) => u.username)).to.deep.equal(['frozen']);
      expect(blocked.body[0].state).to.equal('blocked');
      const active = await s.get('/users', { token: alice.token, query: { active: true, per_page: 100 } });
      expect(active.body.map((u: { username: string }) => u.username)).to.not.include('frozen');
      expect(active.body.every((u: { state: string }) => u.state === 'active')).to.equal(true);
    });

    it('searches names and usernames by parts of 3+ characters, e-mails exactly, relevance first', async () => {
      await s.createUser('searchme');
      await s.db('users').where({ username: 'searchme' }).update({ name: 'Aaron Alice' });
      const names = (r: { body: { username: string }[] }) => r.body.map((u) => u.username);
      // Without an exact match, by name.
      expect(names(await s.get('/users', { token: bob.token, query: { search: 'LIC' } }))).to.deep.equal(['searchme', 'alice']);
      // An exact username match comes first.
      expect(names(await s.get('/users', { token: bob.token, query: { search: 'alice' } }))).to.deep.equal(['alice', 'searchme']);
      // Short queries must equal a name or username (any case).
      expect(names(await s.get('/users', { token: bob.token, query: { search: 'al' } }))).to.deep.equal([]);
      expect(names(await s.get('/users', { token: bob.token, query: { search: 'Bob' } }))).to.deep.equal(['bob']);
      expect(names(await s.get('/users', { token: bob.token, query: { search: 'BOB@example.com' } }))).to.deep.equal(['bob']);
      expect(names(await s.get('/users', { token: bob.token, query: { search: 'bob@exa' } }))).to.deep.equal([]);
      // Admins get their order (id descending by default) instead of relevance.
      expect(names(await s.get('/users', { query: { search: 'alice' } }))).to.deep.equal(['searchme', 'alice']);
    });

    it('orders and filters by creation time for admins only', async () => {
      await s.db('users').where({ id: bob.user.id }).update({ created_at: '2001-01-01T00:00:00.000Z' });
      const before = await s.get('/users', { query: { created_before: '2001-01-02T00:00:00.060Z' } });
      expectSchema(before.body, 'public_api/v4/user/admins.json');
      expect(before.body.map((u: { username: string }) => u.username)).to.deep.equal(['bob']);
      const between = await s.get('/users', { query: { created_before: '2001-01-02T00:00:00Z', created_after: '1999-01-02T00:00:00.060' } });
      expect(between.body.map((u: { username: string }) => u.username)).to.deep.equal(['bob']);
      // Ignored for non-admins.
      const ignored = await s.get('/users', { token: alice.token, query: { created_before: '2001-01-02T00:00:00Z' } });
      expect(ignored.body.length).to.be.greaterThan(1);

      const asc = await s.get('/users', { query: { order_by: 'username', sort: 'asc', per_page: 100 } });
      const names = asc.body.map((u: { username: string }) => u.username);
      expect(names).to.deep.equal([...names].sort());
      const notForUsers = await s.get('/users', { token: alice.token, query: { order_by: 'id', sort: 'asc', per_page: 100 } });
      const ids = notForUsers.body.map((u: { id: number }) => u.id);
      expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
    });

    it('answers 400 for invalid parameters, in declaration order', async () => {
      const bad = await s.get('/users', { token: alice.token, query: { order_by: 'magic', sort: 'asc' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'order_by does not have a valid value' });
      const several = await s.get('/users', { token: null, query: { active: 'maybe', created_after: 'yesterday', sort: 'up' } });
      expect(several.status).to.equal(400);
      expect(several.body).to.deep.equal({ error: 'active is invalid, created_after is invalid, sort does not have a valid value' });
      const page = await s.get('/users', { query: { page: 'two' } });
      expect(page.status).to.equal(400);
      expect(page.body).to.deep.equal({ error: 'page is invalid' });
    });

    it('needs extern_uid and provider together; searching by them is for admins', async () => {
      const one = await s.get('/users', { query: { extern_uid: '123' } });
      expect(one.status).to.equal(400);
      expect(one.body).to.deep.equal({ error: 'extern_uid, provider provide all or none of parameters' });
      const user = await s.get('/users', { token: alice.token, query: { extern_uid: '123', provider: 'github' } });
      expect(user.status).to.equal(403);
      expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      const admin = await s.get('/users', { query: { extern_uid: '123', provider: 'github' } });
      expect(admin.status).to.equal(200);
      expect(admin.body).to.deep.equal([]); // nobody holds that identity (user_identities.test.ts)
    });

    it('paginates with GitLab headers', async () => {
      const r = await s.get('/users', { token: alice.token, query: { per_page: 2, page: 1 } });
      expect(r.body).to.have.length(2);
      const total = Number(r.headers.get('x-total'));
      expect(total).to.be.greaterThan(2);
      expect(r.headers.get('x-total-pages')).to.equal(String(Math.ceil(total / 2)));
      expect(r.headers.get('x-next-page')).to.equal('2');
      expect(r.headers.get('x-prev-page')).to.equal('');
      expect(r.headers.get('link')).to.match(/<[^>]*page=2[^>]*>; rel="next"/);
      const second = await s.get('/users', { token: alice.token, query: { per_page: 2, page: 2 } });
      expect(second.body[0].id).to.be.lessThan(r.body[1].id);
    });

    it('filters by and shows custom attributes for admins only', async () => {
      const put = await s.put(`/users/${alice.user.id}/custom_attributes/team`, { json: { value: 'blue' } });
      expect(put.status).to.equal(200);
      expect(put.body).to.deep.equal({ key: 'team', value: 'blue' });
      const filtered = await s.get('/users', { query: { 'custom_attributes[team]': 'blue', with_custom_attributes: true } });
      expect(filtered.body.map((u: { username: string }) => u.username)).to.deep.equal(['alice']);
      expect(filtered.body[0].custom_attributes).to.deep.equal([{ key: 'team', value: 'blue' }]);
      const user = await s.get('/users', { token: bob.token, query: { 'custom_attributes[team]': 'blue', with_custom_attributes: true } });
      expect(user.body.length).to.be.greaterThan(1);
      expect(user.body[0]).to.not.have.property('custom_attributes');
      const single = await s.get(`/users/${alice.user.id}`, { query: { with_custom_attributes: true } });
      expect(single.body.custom_attributes).to.deep.equal([{ key: 'team', value: 'blue' }]);
      const forbidden = await s.get(`/users/${alice.user.id}/custom_attributes`, { token: bob.token });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body).to.deep.equal({ message: '403 Forbidden' });
    });
  });

  describe('GET /users/:id', () => {
    it('shows User to users and the anonymous, yourself included', async () => {
      for (const token of [bob.token, alice.token, null]) {
        const r = await s.get(`/users/${alice.user.id}`, { token });
        expect(r.status).to.equal(200);
        expectSchema(r.body, 'public_api/v4/user/basic.json');
        expect(r.body).to.have.all.keys(...USER_KEYS);
        expect(r.body.username).to.equal('alice');
      }
    });

    it('shows UserWithAdmin to admins', async () => {
      const r = await s.get(`/users/${alice.user.id}`);
      expectSchema(r.body, 'public_api/v4/user/admin.json');
      expect(r.body).to.have.all.keys(...PUBLIC_KEYS, 'is_admin');
      expect(r.body.is_admin).to.equal(false);
    });

    it('answers 404 User Not Found, and the route 404 for a non-numeric id', async () => {
      const missing = await s.get('/users/999999', { token: alice.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 User Not Found' });
      const huge = await s.get('/users/99999999999999999999', { token: alice.token });
      expect(huge.status).to.equal(404);
      expect(huge.body).to.deep.equal({ message: '404 User Not Found' });
      for (const p of ['/users/alice', '/users/1ASDF']) {
        const r = await s.get(p, { token: alice.token });
        expect(r.status, p).to.equal(404);
        expect(r.body).to.deep.equal({ error: '404 Not Found' });
      }
    });

    it('finds the user before it checks parameters (the route table order), then answers 400', async () => {
      const missing = await s.get('/users/999999', { token: alice.token, query: { with_custom_attributes: 'maybe' } });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 User Not Found' });
      const invalid = await s.get(`/users/${bob.user.id}`, { token: alice.token, query: { with_custom_attributes: 'maybe' } });
      expect(invalid.status).to.equal(400);
      expect(invalid.body).to.deep.equal({ error: 'with_custom_attributes is invalid' });
    });
  });

  describe('POST /users', () => {
    it('needs a user, then an admin, before it validates parameters', async () => {
      const anonymous = await s.post('/users', { token: null, json: {} });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const invalid = await s.post('/users', { token: alice.token, json: { ...newUser('sneaky'), admin: 'yes please' } });
      expect(invalid.status).to.equal(403);
      expect(invalid.body).to.deep.equal({ message: '403 Forbidden' });
      const user = await s.post('/users', { token: alice.token, json: newUser('sneaky') });
      expect(user.status).to.equal(403);
      expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      expect(await s.db('users').where({ username: 'sneaky' }).first()).to.equal(undefined);
    });

    it('lists every missing parameter in declaration order', async () => {
      const r = await s.post('/users', { json: {} });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({
        error: 'email is missing, password, reset_password are missing, at least one parameter must be provided, name is missing, username is missing',
      });
      const noPassword = await s.post('/users', { json: { email: 'x@example.com', name: 'X', username: 'x' } });
      expect(noPassword.body).to.deep.equal({ error: 'password, reset_password are missing, at least one parameter must be provided' });
      const types = await s.post('/users', { json: { ...newUser('typed'), projects_limit: 'many', admin: 'perhaps' } });
      expect(types.body).to.deep.equal({ error: 'projects_limit is invalid, admin is invalid' });
    });

    it('creates a user with its namespace and answers 201 UserPublic', async () => {
      const r = await s.post('/users', {
        json: newUser('dave', { email: ' Dave@Example.COM ', bio: 'hello', skype: 'dave.s', projects_limit: 3, can_create_group: false, organization: 'Org' }),
      });
      expect(r.status).to.equal(201);
      expectSchema(r.body, 'public_api/v4/user/public.json');
      expect(r.body).to.have.all.keys(...PUBLIC_KEYS);
      expect(r.body).to.include({
        username: 'dave',
        email: 'dave@example.com',
        name: 'Name of dave',
        bio: 'hello',
        skype: 'dave.s',
        organization: 'Org',
        projects_limit: 3,
        can_create_group: false,
        can_create_project: true,
        external: false,
        state: 'active',
      });
      expect(r.body.confirmed_at).to.equal(null);
      const ns = await personalNamespace(s, r.body);
      expect(ns).to.include({ path: 'dave', full_path: 'dave', name: 'dave' });
      const row: UserRow = await s.db('users').where({ id: r.body.id }).first();
      expect(row.password_digest).to.match(/^scrypt\$/);
      expect(row.password_digest).to.not.include('secret-password');
      expect(!!row.admin).to.equal(false);
    });

    it('takes form bodies, admin, external, skip_confirmation and reset_password', async () => {
      const r = await s.post('/users', {
        form: { email: 'erin@example.com', username: 'erin', name: 'Erin', reset_password: 'true', admin: 'true', external: 'true', skip_confirmation: 'true' },
      });
      expect(r.status).to.equal(201);
      // External users can create neither groups nor projects, whatever was asked.
      expect(r.body).to.include({ external: true, projects_limit: 0, can_create_group: false, can_create_project: false });
      expect(r.body.confirmed_at).to.be.a('string');
      const row: UserRow = await s.db('users').where({ username: 'erin' }).first();
      expect(!!row.admin).to.equal(true);
      expect(row.password_digest).to.match(/^scrypt\$/);
    });

    it("answers GitLab's validation errors", async () => {
      const r = await s.post('/users', {
        json: { password: 'pass', email: 'test@example.com', username: 'test!', name: 'test', bio: 'g'.repeat(256), projects_limit: -1 },
      });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({
        message: {
          password: ['is too short (minimum is 8 characters)'],
          bio: ['is too long (maximum is 255 characters)'],
          projects_limit: ['must be greater than or equal to 0'],
          username: [FORMAT_MESSAGE],
        },
      });
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ email: 'invalid email' }, { email: ['is invalid'] }],
        [{ username: 'admin' }, { username: ['admin is a reserved name'] }],
        [{ username: 'ends.git' }, { username: [FORMAT_MESSAGE] }],
        [{ username: '-dash' }, { username: [FORMAT_MESSAGE] }],
        [{ password: undefined, reset_password: false }, { password: ["can't be blank"] }],
        [{ name: '' }, { name: ["can't be blank"] }],
        [{ projects_limit: 2147483648 }, { projects_limit: ['must be less than or equal to 2147483647'] }],
      ];
      for (const [extra, message] of cases) {
        const res = await s.post('/users', { json: newUser('valid.name', extra) });
        expect(res.status, JSON.stringify(extra)).to.equal(400);
        expect(res.body).to.deep.equal({ message });
      }
      expect(await s.db('users').where({ username: 'valid.name' }).first()).to.equal(undefined);
    });

    it('answers 409 for a taken e-mail or username, before other errors', async () => {
      const email = await s.post('/users', { json: newUser('fresh', { email: 'ALICE@example.com', password: 'short' }) });
      expect(email.status).to.equal(409);
      expect(email.body).to.deep.equal({ message: 'Email has already been taken' });
      const username = await s.post('/users', { json: newUser('alice', { email: 'other@example.com' }) });
      expect(username.status).to.equal(409);
      expect(username.body).to.deep.equal({ message: 'Username has already been taken' });
    });

    it('refuses a username another namespace has, in any case, as a validation error', async () => {
      await seedGroup(s, 'team-x');
      for (const taken of ['Alice', 'TEAM-X']) {
        const r = await s.post('/users', { json: newUser(taken, { email: `${taken}-new@example.com` }) });
        expect(r.status, taken).to.equal(400);
        expect(r.body).to.deep.equal({ message: { username: ['has already been taken'] } });
      }
    });

    it('creates exactly one of several concurrent identical requests, the rest 409', async () => {
      const replies = await Promise.all(Array.from({ length: 5 }, () => s.post('/users', { json: newUser('racer') })));
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([201, 409, 409, 409, 409]);
      for (const r of replies.filter((x) => x.status === 409)) expect(r.body).to.deep.equal({ message: 'Email has already been taken' });
    });

    it('lets the new user authenticate with an impersonation token', async () => {
      const created = await s.post('/users', { json: newUser('gina') });
      const token = await s.post(`/users/${created.body.id}/impersonation_tokens`, { json: { name: 't', scopes: ['api'] } });
      const me = await s.get('/user', { token: token.body.token });
      expect(me.status).to.equal(200);
      expect(me.body.username).to.equal('gina');
    });
  });

  describe('PUT /users/:id', () => {
    let target: UserRow;
    before(async () => {
      target = (await s.createUser('henry')).user;
    });

    it('needs a user, then an admin, and an existing numeric id', async () => {
      const anonymous = await s.put(`/users/${target.id}`, { token: null, json: { bio: 'x' } });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const user = await s.put(`/users/${target.id}`, { token: alice.token, json: { bio: 'x' } });
      expect(user.status).to.equal(403);
      expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      const missing = await s.put('/users/999999', { json: { bio: 'x' } });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 User Not Found' });
      const word = await s.put('/users/ASDF', { json: { bio: 'x' } });
      expect(word.status).to.equal(404);
      expect(word.body).to.deep.equal({ error: '404 Not Found' });
    });

    it('updates profile fields and answers UserPublic', async () => {
      const r = await s.put(`/users/${target.id}`, {
        json: { bio: 'new bio', organization: 'GitLab', name: 'Henry H', email: 'Henry.New@Example.com', admin: true, location: 'Here' },
      });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/user/public.json');
      expect(r.body).to.have.all.keys(...PUBLIC_KEYS);
      expect(r.body).to.include({ bio: 'new bio', organization: 'GitLab', name: 'Henry H', email: 'henry.new@example.com', location: 'Here' });
      const row: UserRow = await s.db('users').where({ id: target.id }).first();
      expect(!!row.admin).to.equal(true);
      const same = await s.put(`/users/${target.id}`, { json: { username: 'henry', email: 'henry.new@example.com' } });
      expect(same.status).to.equal(200);
    });

    it('changes the password', async () => {
      const before: UserRow = await s.db('users').where({ id: target.id }).first();
      const r = await s.put(`/users/${target.id}`, { json: { password: '12345678' } });
      expect(r.status).to.equal(200);
      const after: UserRow = await s.db('users').where({ id: target.id }).first();
      expect(after.password_digest).to.match(/^scrypt\$/);
      expect(after.password_digest).to.not.equal(before.password_digest);
    });

    it('answers validation errors and conflicts as GitLab does', async () => {
      const r = await s.put(`/users/${target.id}`, {
        json: { password: 'pass', email: 'test@example.com', username: 'test!', name: 'test', bio: 'g'.repeat(256), projects_limit: -1 },
      });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({
        message: {
          password: ['is too short (minimum is 8 characters)'],
          bio: ['is too long (maximum is 255 characters)'],
          projects_limit: ['must be greater than or equal to 0'],
          username: [FORMAT_MESSAGE],
        },
      });
      const invalidEmail = await s.put(`/users/${target.id}`, { json: { email: 'invalid email' } });
      expect(invalidEmail.body).to.deep.equal({ message: { email: ['is invalid'] } });
      const email = await s.put(`/users/${target.id}`, { json: { email: 'bob@example.com' } });
      expect(email.status).to.equal(409);
      expect(email.body).to.deep.equal({ message: 'Email has already been taken' });
      const username = await s.put(`/users/${target.id}`, { json: { username: 'bob', password: 'x' } });
      expect(username.status).to.equal(409);
      expect(username.body).to.deep.equal({ message: 'Username has already been taken' });
      const typed = await s.put(`/users/${target.id}`, { json: { external: 'sometimes' } });
      expect(typed.status).to.equal(400);
      expect(typed.body).to.deep.equal({ error: 'external is invalid' });
      const row: UserRow = await s.db('users').where({ id: target.id }).first();
      expect(row.username).to.equal('henry');
      expect(row.email).to.equal('henry.new@example.com');
    });

    it('applies the external-user limits, and the defaults back', async () => {
      const ext = await s.put(`/users/${target.id}`, { json: { external: true, projects_limit: 10 } });
      expect(ext.body).to.include({ external: true, projects_limit: 0, can_create_group: false, can_create_project: false });
      const back = await s.put(`/users/${target.id}`, { json: { external: false } });
      expect(back.body).to.include({ external: false, projects_limit: 100000, can_create_group: true });
      const own = await s.put(`/users/${target.id}`, { json: { external: true } });
      expect(own.body.projects_limit).to.equal(0);
      // Values changed by the same update are kept; one given unchanged (false → false) is not a change.
      const withLimit = await s.put(`/users/${target.id}`, { json: { external: false, projects_limit: 7, can_create_group: false } });
      expect(withLimit.body).to.include({ projects_limit: 7, can_create_group: true });
    });

    it('renames the personal namespace and moves its repositories with the username', async () => {
      const { user } = await s.createUser('ivan');
      const ns = await personalNamespace(s, user);
      await seedProject(s, ns, 'tool');
      const root = s.deps.repos.root;
      expect(fs.existsSync(path.join(root, 'ivan', 'tool.git', 'HEAD'))).to.equal(true);

      const r = await s.put(`/users/${user.id}`, { json: { username: 'ivan2' } });
      expect(r.status).to.equal(200);
      expect(r.body.username).to.equal('ivan2');
      expect(r.body.web_url).to.equal(`${s.url}/ivan2`);
      const renamed = await s.db('namespaces').where({ id: ns.id }).first();
      expect(renamed).to.include({ path: 'ivan2', full_path: 'ivan2', name: 'ivan2' });
      expect(fs.existsSync(path.join(root, 'ivan2', 'tool.git', 'HEAD'))).to.equal(true);
      expect(fs.existsSync(path.join(root, 'ivan'))).to.equal(false);

      const clash = await s.put(`/users/${user.id}`, { json: { username: 'TEAM-X' } });
      expect(clash.status).to.equal(400);
      expect(clash.body).to.deep.equal({ message: { username: ['has already been taken'] } });
      expect(fs.existsSync(path.join(root, 'ivan2', 'tool.git', 'HEAD'))).to.equal(true);
    });
  });

  describe('POST /users/:id/block and /unblock', () => {
    it('blocks and unblocks, answering 201 true, or false when nothing changed', async () => {
      const { user, token } = await s.createUser('jack');
      const block = await s.post(`/users/${user.id}/block`);
      expect(block.status).to.equal(201);
      expect(block.headers.get('content-type')).to.equal('application/json');
      expect(block.text).to.equal('true');
      expect((await s.post(`/users/${user.id}/block`)).text).to.equal('false');
      expect((await s.get(`/users/${user.id}`)).body.state).to.equal('blocked');
      const refused = await s.get('/user', { token });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ message: '403 Forbidden - Your account has been blocked.' });

      const unblock = await s.post(`/users/${user.id}/unblock`);
      expect(unblock.status).to.equal(201);
      expect(unblock.body).to.equal(true);
      expect((await s.post(`/users/${user.id}/unblock`)).body).to.equal(false);
      expect((await s.get('/user', { token })).status).to.equal(200);
    });

    it('is for admins, on existing users', async () => {
      for (const action of ['block', 'unblock']) {
        const anonymous = await s.post(`/users/${bob.user.id}/${action}`, { token: null });
        expect(anonymous.status).to.equal(401);
        expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
        const user = await s.post(`/users/${bob.user.id}/${action}`, { token: alice.token });
        expect(user.status).to.equal(403);
        expect(user.body).to.deep.equal({ message: '403 Forbidden' });
        const missing = await s.post(`/users/999999/${action}`);
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ message: '404 User Not Found' });
      }
      expect((await s.get(`/users/${bob.user.id}`)).body.state).to.equal('active');
    });
  });

  describe('DELETE /users/:id', () => {
    it('is for admins, on existing users', async () => {
      const anonymous = await s.delete(`/users/${bob.user.id}`, { token: null });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const user = await s.delete(`/users/${bob.user.id}`, { token: alice.token });
      expect(user.status).to.equal(403);
      expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      const missing = await s.delete('/users/999999');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 User Not Found' });
      const typed = await s.delete(`/users/${bob.user.id}`, { query: { hard_delete: 'maybe' } });
      expect(typed.status).to.equal(400);
      expect(typed.body).to.deep.equal({ error: 'hard_delete is invalid' });
    });

    it('removes the user, tokens, memberships, namespace, personal projects and their repositories', async () => {
      const { user, token } = await s.createUser('kate');
      const ns = await personalNamespace(s, user);
      const projectId = await seedProject(s, ns, 'notes');
      await insertMember(s.db, { sourceType: 'project', sourceId: projectId, userId: bob.user.id, accessLevel: 30 });
      const shared = await seedGroup(s, 'shared-team', [
        [bob.user.id, 50],
        [user.id, 50],
      ]);

      const r = await s.delete(`/users/${user.id}`);
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect((await s.get(`/users/${user.id}`)).status).to.equal(404);
      expect((await s.get('/user', { token })).status).to.equal(401);
      expect(await s.db('personal_access_tokens').where({ user_id: user.id })).to.deep.equal([]);
      expect(await s.db('members').where({ user_id: user.id })).to.deep.equal([]);
      expect(await s.db('namespaces').where({ id: ns.id })).to.deep.equal([]);
      expect(await s.db('projects').where({ id: projectId })).to.deep.equal([]);
      expect(await s.db('members').where({ source_type: 'project', source_id: projectId })).to.deep.equal([]);
      expect(fs.existsSync(path.join(s.deps.repos.root, 'kate'))).to.equal(false);
      // A group with another owner stays.
      expect(await s.db('namespaces').where({ id: shared.id }).first()).to.not.equal(undefined);
    });

    it('refuses to orphan groups the user alone owns, unless hard_delete', async () => {
      const { user } = await s.createUser('liam');
      const group = await seedGroup(s, 'liams-group', [
        [user.id, 50],
        [bob.user.id, 30],
      ]);
      const sub = await seedGroup(s, 'sub', [], group);
      await seedProject(s, sub, 'deep');

      const refused = await s.delete(`/users/${user.id}`);
      expect(refused.status).to.equal(409);
      expect(refused.body).to.deep.equal({ message: 'You must transfer ownership or delete groups before you can remove user' });
      expect(await s.db('users').where({ id: user.id }).first()).to.not.equal(undefined);

      const hard = await s.delete(`/users/${user.id}`, { query: { hard_delete: true } });
      expect(hard.status).to.equal(204);
      expect(await s.db('namespaces').whereIn('id', [group.id, sub.id])).to.deep.equal([]);
      expect(await s.db('members').where({ source_type: 'group', source_id: group.id })).to.deep.equal([]);
      expect(await s.db('projects').where({ namespace_id: sub.id })).to.deep.equal([]);
      expect(fs.existsSync(path.join(s.deps.repos.root, 'liams-group'))).to.equal(false);
    });

    it('answers 412 when the user changed after If-Unmodified-Since', async () => {
      const { user } = await s.createUser('mia');
      const r = await s.delete(`/users/${user.id}`, { headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
      expect(r.status).to.equal(412);
      expect(r.body).to.deep.equal({ message: '412 Precondition Failed' });
      expect(await s.db('users').where({ id: user.id }).first()).to.not.equal(undefined);
      const later = await s.delete(`/users/${user.id}`, { headers: { 'If-Unmodified-Since': new Date(Date.now() + 60_000).toUTCString() } });
      expect(later.status).to.equal(204);
    });

    it('lets an admin delete themselves', async () => {
      const { user, token } = await s.createUser('nora', { admin: true });
      const r = await s.delete(`/users/${user.id}`, { token });
      expect(r.status).to.equal(204);
      expect((await s.get('/user', { token: ROOT_TOKEN })).status).to.equal(200);
    });
  });
});
