// Users' secondary e-mails: /user/emails and /users/:id/emails (admins), with GitLab 10.8's
// shapes (`{id, email}`), the Email model's validation messages, and the uniqueness it shares
// with users' primary e-mails.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { openApiSchemas, type SchemaCheck } from '../helpers/openapi_schemas.js';
import type { UserRow } from '../../src/store/rows.js';

type Account = { user: UserRow; token: string };
const TAKEN = { message: { email: ['has already been taken'] } };

describe('User e-mails API', function () {
  this.timeout(60_000);
  let s: TestServer;
  let alice: Account;
  let bob: Account;
  let schema: SchemaCheck;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    schema = await openApiSchemas(s);
  });
  after(async () => s.close());

  describe('POST /user/emails', () => {
    it('adds an address, stored stripped and lower-cased, unconfirmed (Wharf sends no mail)', async () => {
      const r = await s.post('/user/emails', { token: alice.token, json: { email: '  Alice.Work@Example.ORG ' } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.deep.equal({ id: r.body.id, email: 'alice.work@example.org' });
      schema(r.body, 'Email');
      const row = await s.db('emails').where({ id: r.body.id }).first();
      expect(row).to.include({ user_id: alice.user.id, email: 'alice.work@example.org', confirmed_at: null });
    });

    it('refuses an address that is anyone’s secondary or primary e-mail, whatever its case', async () => {
      for (const [token, email] of [
        [alice.token, 'alice.work@example.org'],
        [bob.token, 'ALICE.WORK@example.org'],
        [bob.token, 'alice@example.com'],
        [alice.token, 'alice@example.com'],
      ]) {
        const r = await s.post('/user/emails', { token, json: { email } });
        expect(r.status, email).to.equal(400);
        expect(r.body, email).to.deep.equal(TAKEN);
      }
    });

    it('answers the Email model’s messages for a blank, malformed or too long address, and stores nothing', async () => {
      const before = await s.db('emails').count({ n: '*' }).first();
      const cases: [string, string[]][] = [
        ['', ["can't be blank", 'is invalid']],
        ['   ', ["can't be blank", 'is invalid']],
        ['not an address', ['is invalid']],
        ['two@@example.com', ['is invalid']],
        [`${'a'.repeat(250)}@example.com`, ['is too long (maximum is 255 characters)']],
      ];
      for (const [email, messages] of cases) {
        const r = await s.post('/user/emails', { token: alice.token, json: { email } });
        expect(r.status, email).to.equal(400);
        expect(r.body, email).to.deep.equal({ message: { email: messages } });
      }
      expect(await s.db('emails').count({ n: '*' }).first()).to.deep.equal(before);
    });

    it('answers a missing address as Grape does, 401 to the anonymous, 403 to a read_user token', async () => {
      const nul = await s.post('/user/emails', { token: alice.token, json: { email: 'a\u0000b@example.com' } });
      expect(nul.status).to.equal(400);
      expect(nul.body).to.deep.equal({ error: 'email is invalid' });
      const huge = await s.get('/user/emails/99999999999999', { token: alice.token });
      expect(huge.status).to.equal(400);
      expect(huge.body).to.deep.equal({ error: 'email_id is invalid' });
      const none = await s.post('/user/emails', { token: alice.token, json: {} });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'email is missing' });
      const anon = await s.post('/user/emails', { token: null, json: { email: 'x@example.com' } });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
      const reader = await s.createUser('reader', { scopes: ['read_user'] });
      expect((await s.get('/user/emails', { token: reader.token })).status).to.equal(200);
      const write = await s.post('/user/emails', { token: reader.token, json: { email: 'reader2@example.com' } });
      expect(write.status).to.equal(403);
      expect(write.body.error).to.equal('insufficient_scope');
    });
  });

  describe('GET and DELETE /user/emails', () => {
    it('lists only the signed-in user’s addresses, paginated, in id order', async () => {
      await s.post('/user/emails', { token: alice.token, json: { email: 'alice.home@example.org' } });
      await s.post('/user/emails', { token: alice.token, json: { email: 'alice.old@example.org' } });
      const r = await s.get('/user/emails', { token: alice.token, query: { per_page: 2 } });
      expect(r.status).to.equal(200);
      expect(r.headers.get('x-total')).to.equal('3');
      expect(r.headers.get('x-next-page')).to.equal('2');
      schema(r.body, 'Email', true);
      expect(r.body.map((e: { email: string }) => e.email)).to.deep.equal(['alice.work@example.org', 'alice.home@example.org']);
      expect((await s.get('/user/emails', { token: bob.token })).body).to.deep.equal([]);
    });

    it('shows one own address; another user’s is 404 Email Not Found; a word is 400', async () => {
      const [first] = (await s.get('/user/emails', { token: alice.token })).body;
      const mine = await s.get(`/user/emails/${first.id}`, { token: alice.token });
      expect(mine.status).to.equal(200);
      expect(mine.body).to.deep.equal(first);
      const theirs = await s.get(`/user/emails/${first.id}`, { token: bob.token });
      expect(theirs.status).to.equal(404);
      expect(theirs.body).to.deep.equal({ message: '404 Email Not Found' });
      const word = await s.get('/user/emails/first', { token: alice.token });
      expect(word.status).to.equal(400);
      expect(word.body).to.deep.equal({ error: 'email_id is invalid' });
    });

    it('deletes an own address (204), then 404; 412 with a stale If-Unmodified-Since; the address is free again', async () => {
      const { body } = await s.post('/user/emails', { token: bob.token, json: { email: 'bob.temp@example.org' } });
      const stale = await s.delete(`/user/emails/${body.id}`, { token: bob.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(stale.status).to.equal(412);
      expect(stale.body).to.deep.equal({ message: '412 Precondition Failed' });
      const notTheirs = await s.delete(`/user/emails/${body.id}`, { token: alice.token });
      expect(notTheirs.status).to.equal(404);
      expect(notTheirs.body).to.deep.equal({ message: '404 Email Not Found' });
      const r = await s.delete(`/user/emails/${body.id}`, { token: bob.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      const again = await s.delete(`/user/emails/${body.id}`, { token: bob.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 Email Not Found' });
      const word = await s.delete('/user/emails/ASDF', { token: bob.token });
      expect(word.status).to.equal(400);
      expect((await s.post('/user/emails', { token: alice.token, json: { email: 'bob.temp@example.org' } })).status).to.equal(201);
    });
  });

  describe('/users/:id/emails (admins)', () => {
    it('is for admins only: 401 anonymous, 403 others (their own addresses included)', async () => {
      for (const [method, p] of [
        ['GET', `/users/${alice.user.id}/emails`],
        ['POST', `/users/${alice.user.id}/emails`],
        ['DELETE', `/users/${alice.user.id}/emails/1`],
      ] as const) {
        const anon = await s.request(method, p, { token: null });
        expect(anon.status, `${method} ${p}`).to.equal(401);
        expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
        const user = await s.request(method, p, { token: alice.token });
        expect(user.status, `${method} ${p}`).to.equal(403);
        expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      }
    });

    it('lists, adds (skip_confirmation confirms) and deletes a user’s addresses; unknown users and addresses are 404', async () => {
      const list = await s.get(`/users/${alice.user.id}/emails`);
      expect(list.status).to.equal(200);
      expect(list.headers.get('x-total')).to.equal('4');
      const added = await s.post(`/users/${bob.user.id}/emails`, { json: { email: 'bob.admin@example.org' } });
      expect(added.status, added.text).to.equal(201);
      expect(added.body).to.deep.equal({ id: added.body.id, email: 'bob.admin@example.org' });
      expect((await s.db('emails').where({ id: added.body.id }).first()).confirmed_at).to.equal(null);
      const confirmed = await s.post(`/users/${bob.user.id}/emails`, { json: { email: 'bob.sure@example.org', skip_confirmation: true } });
      expect(confirmed.status).to.equal(201);
      expect((await s.db('emails').where({ id: confirmed.body.id }).first()).confirmed_at).to.match(/^\d{4}-\d\d-\d\dT/);
      expect((await s.get('/user/emails', { token: bob.token })).body.map((e: { id: number }) => e.id)).to.deep.equal([added.body.id, confirmed.body.id]);
      const dup = await s.post(`/users/${bob.user.id}/emails`, { json: { email: 'alice.home@example.org' } });
      expect(dup.status).to.equal(400);
      expect(dup.body).to.deep.equal(TAKEN);
      const missing = await s.post(`/users/${bob.user.id}/emails`, { json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'email is missing' });
      for (const [method, p] of [
        ['GET', '/users/999999/emails'],
        ['POST', '/users/999999/emails'],
        ['DELETE', '/users/999999/emails/1'],
      ] as const) {
        const r = await s.request(method, p, method === 'POST' ? { json: { email: 'nobody@example.org' } } : {});
        expect(r.status, `${method} ${p}`).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 User Not Found' });
      }
      expect((await s.get('/users/ASDF/emails')).status).to.equal(404);
      const wrongOwner = await s.delete(`/users/${alice.user.id}/emails/${added.body.id}`);
      expect(wrongOwner.status).to.equal(404);
      expect(wrongOwner.body).to.deep.equal({ message: '404 Email Not Found' });
      expect((await s.delete(`/users/${bob.user.id}/emails/${added.body.id}`)).status).to.equal(204);
      expect((await s.get(`/users/${bob.user.id}/emails`)).body.map((e: { id: number }) => e.id)).to.deep.equal([confirmed.body.id]);
    });
  });

  describe('primary e-mails', () => {
    it('refuses another user’s secondary address as a new or changed primary e-mail (400, as the User model); a changed one is kept as a secondary', async () => {
      const created = await s.post('/users', { json: { email: 'alice.home@example.org', username: 'dave', name: 'Dave', password: 'secret-password' } });
      expect(created.status).to.equal(400);
      expect(created.body).to.deep.equal(TAKEN);
      const changed = await s.put(`/users/${bob.user.id}`, { json: { email: 'Alice.Home@example.org' } });
      expect(changed.status).to.equal(400);
      expect(changed.body).to.deep.equal(TAKEN);
      expect((await s.get(`/users/${bob.user.id}`)).body.email).to.equal('bob@example.com');
      const own = await s.put(`/users/${alice.user.id}`, { json: { email: 'alice.home@example.org' } });
      expect(own.status, own.text).to.equal(200);
      expect(own.body.email).to.equal('alice.home@example.org');
      // The old primary e-mail is kept as a secondary one (confirmed, as the account was); the new one is no longer one.
      const after = (await s.get('/user/emails', { token: alice.token })).body.map((e: { email: string }) => e.email);
      expect(after).to.include('alice@example.com').and.not.include('alice.home@example.org');
      const kept = await s.db('emails').where({ email: 'alice@example.com' }).first();
      expect(kept.user_id).to.equal(alice.user.id);
      expect(kept.confirmed_at).to.equal(alice.user.confirmed_at);
      const same = await s.put(`/users/${alice.user.id}`, { json: { email: 'alice.home@example.org' } });
      expect(same.status).to.equal(200);
      expect((await s.get('/user/emails', { token: alice.token })).body.map((e: { email: string }) => e.email)).to.deep.equal(after);
    });
  });

  describe('deleting a user', () => {
    it('deletes the user’s addresses, so they can be used again', async () => {
      const carol = await s.createUser('carol');
      const { body } = await s.post('/user/emails', { token: carol.token, json: { email: 'carol.second@example.org' } });
      expect((await s.delete(`/users/${carol.user.id}`)).status).to.equal(204);
      expect(await s.db('emails').where({ id: body.id }).first()).to.equal(undefined);
      expect((await s.post('/user/emails', { token: bob.token, json: { email: 'carol.second@example.org' } })).status).to.equal(201);
    });
  });
});
