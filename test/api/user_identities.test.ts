// External identities on users (GitLab 10.8): `provider` and `extern_uid` on POST and PUT
// /users are kept, shown in UserPublic (to admins and to the user), not to other users, and
// found by GET /users?extern_uid=&provider= (admins); an extern_uid belongs to one user per
// provider, compared without case.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import type { UserRow } from '../../src/store/rows.js';
import { createToken } from '../../src/services/users/tokens.js';

const INVALID = { message: { identities: ['is invalid'] } };

const newUser = (username: string, extra: Record<string, unknown> = {}) => ({
  email: `${username}@example.com`,
  username,
  name: `Name of ${username}`,
  password: 'secret-password',
  ...extra,
});

describe('User identities', () => {
  let s: TestServer;
  let alice: { user: UserRow; token: string };

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
  });
  after(() => s.close());

  it('keeps the identity given on create and shows it to admins, not to other users', async () => {
    const r = await s.post('/users', { json: newUser('carol', { provider: 'github', extern_uid: 'Carol-123' }) });
    expect(r.status, r.text).to.equal(201);
    expectSchema(r.body, 'public_api/v4/user/public.json');
    expect(r.body.identities).to.deep.equal([{ provider: 'github', extern_uid: 'Carol-123' }]);

    const asAdmin = await s.get(`/users/${r.body.id}`);
    expect(asAdmin.status).to.equal(200);
    expect(asAdmin.body.identities).to.deep.equal([{ provider: 'github', extern_uid: 'Carol-123' }]);
    const list = await s.get('/users', { query: { username: 'carol' } });
    expect(list.body[0].identities).to.deep.equal([{ provider: 'github', extern_uid: 'Carol-123' }]);

    const asOther = await s.get(`/users/${r.body.id}`, { token: alice.token });
    expect(asOther.status).to.equal(200);
    expect(asOther.body).to.not.have.property('identities');
    const otherList = await s.get('/users', { token: alice.token, query: { username: 'carol' } });
    expect(otherList.body[0]).to.not.have.property('identities');
  });

  it('shows the user their own identities on GET /user', async () => {
    const created = await s.post('/users', { json: newUser('dave', { provider: 'ldapmain', extern_uid: 'uid=dave,ou=people' }) });
    expect(created.status, created.text).to.equal(201);
    const { token } = await createToken(s.db, { userId: created.body.id, name: 'test', scopes: ['api'] });
    const me = await s.get('/user', { token });
    expect(me.status).to.equal(200);
    expect(me.body.identities).to.deep.equal([{ provider: 'ldapmain', extern_uid: 'uid=dave,ou=people' }]);
  });

  it('finds a user by extern_uid (any case) and provider, for admins', async () => {
    const created = await s.post('/users', { json: newUser('erin', { provider: 'google_oauth2', extern_uid: 'ErinX' }) });
    expect(created.status, created.text).to.equal(201);
    for (const uid of ['ErinX', 'erinx']) {
      const r = await s.get('/users', { query: { extern_uid: uid, provider: 'google_oauth2' } });
      expect(r.status).to.equal(200);
      expect(r.body.map((u: { username: string }) => u.username)).to.deep.equal(['erin']);
    }
    const otherProvider = await s.get('/users', { query: { extern_uid: 'ErinX', provider: 'github' } });
    expect(otherProvider.body).to.deep.equal([]);
    const forbidden = await s.get('/users', { token: alice.token, query: { extern_uid: 'ErinX', provider: 'google_oauth2' } });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body).to.deep.equal({ message: '403 Forbidden' });
  });

  it('changes the identity of the provider on update, or adds one for another provider', async () => {
    const created = await s.post('/users', { json: newUser('frank', { provider: 'github', extern_uid: 'f1' }) });
    let r = await s.put(`/users/${created.body.id}`, { json: { provider: 'github', extern_uid: 'f2' } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.identities).to.deep.equal([{ provider: 'github', extern_uid: 'f2' }]);
    r = await s.put(`/users/${created.body.id}`, { form: { provider: 'gitlab', extern_uid: 'f3', bio: 'hi' } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.bio).to.equal('hi');
    expect(r.body.identities).to.deep.equal([
      { provider: 'github', extern_uid: 'f2' },
      { provider: 'gitlab', extern_uid: 'f3' },
    ]);
    const back = await s.get(`/users/${created.body.id}`);
    expect(back.body.identities).to.deep.equal(r.body.identities);
  });

  it("refuses another user's extern_uid for the same provider and writes nothing", async () => {
    await s.post('/users', { json: newUser('gina', { provider: 'github', extern_uid: 'shared' }) });
    const dup = await s.post('/users', { json: newUser('hank', { provider: 'github', extern_uid: 'SHARED' }) });
    expect(dup.status).to.equal(400);
    expect(dup.body).to.deep.equal(INVALID);
    expect((await s.get('/users', { query: { username: 'hank' } })).body).to.deep.equal([]);

    const other = await s.post('/users', { json: newUser('hank', { provider: 'gitlab', extern_uid: 'shared' }) });
    expect(other.status, other.text).to.equal(201);
    const update = await s.put(`/users/${other.body.id}`, { json: { provider: 'github', extern_uid: 'Shared', bio: 'changed' } });
    expect(update.status).to.equal(400);
    expect(update.body).to.deep.equal(INVALID);
    const back = await s.get(`/users/${other.body.id}`);
    expect(back.body.bio).to.equal(other.body.bio);
    expect(other.body.bio).to.not.equal('changed');
    expect(back.body.identities).to.deep.equal([{ provider: 'gitlab', extern_uid: 'shared' }]);

    const blank = await s.post('/users', { json: newUser('ivan', { provider: '', extern_uid: 'x' }) });
    expect(blank.status).to.equal(400);
    expect(blank.body).to.deep.equal(INVALID);
  });

  it('needs both parameters together', async () => {
    const r = await s.post('/users', { json: newUser('jill', { provider: 'github' }) });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ error: 'extern_uid, provider provide all or none of parameters' });
  });

  it("deletes a user's identities with the user", async () => {
    const created = await s.post('/users', { json: newUser('kate', { provider: 'github', extern_uid: 'kate' }) });
    const del = await s.delete(`/users/${created.body.id}`);
    expect(del.status).to.equal(204);
    expect(await s.db('identities').where({ user_id: created.body.id })).to.deep.equal([]);
    const again = await s.post('/users', { json: newUser('kate2', { provider: 'github', extern_uid: 'kate' }) });
    expect(again.status, again.text).to.equal(201);
  });
});
