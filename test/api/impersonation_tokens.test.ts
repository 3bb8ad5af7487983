// Impersonation tokens: admin-only, created for a user, shown without their secret afterwards,
// revoked on DELETE; the secret authenticates as the user until then.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { createToken, tokenDigest } from '../../src/services/users/tokens.js';
import type { UserRow } from '../../src/store/rows.js';

const ENTITY_KEYS = ['id', 'name', 'revoked', 'created_at', 'scopes', 'active', 'expires_at', 'impersonation'];

describe('Impersonation tokens API', () => {
  let s: TestServer;
  let alice: { user: UserRow; token: string };
  let base: string;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    base = `/users/${alice.user.id}/impersonation_tokens`;
  });
  after(async () => s.close());

  it('is for admins only, checked before the parameters', async () => {
    for (const [method, p] of [
      ['GET', base],
      ['POST', base],
      ['GET', `${base}/1`],
      ['DELETE', `${base}/1`],
      ['POST', '/users/abc/impersonation_tokens'],
    ] as const) {
      const anonymous = await s.request(method, p, { token: null });
      expect(anonymous.status, `${method} ${p}`).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const user = await s.request(method, p, { token: alice.token });
      expect(user.status, `${method} ${p}`).to.equal(403);
      expect(user.body).to.deep.equal({ message: '403 Forbidden' });
    }
  });

  it('answers 404 User Not Found for an unknown user, 400 for a non-numeric one', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const r = await s.request(method, '/users/999999/impersonation_tokens', method === 'POST' ? { json: { name: 'x', scopes: ['api'] } } : {});
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 User Not Found' });
    }
    const word = await s.get('/users/alice/impersonation_tokens');
    expect(word.status).to.equal(400);
    expect(word.body).to.deep.equal({ error: 'user_id is invalid' });
    const both = await s.get('/users/alice/impersonation_tokens/first');
    expect(both.body).to.deep.equal({ error: 'user_id is invalid, impersonation_token_id is invalid' });
  });

  describe('POST', () => {
    it('creates a token, shows its secret once, and the secret authenticates as the user', async () => {
      const r = await s.post(base, { json: { name: 'ci', scopes: ['api', 'read_user'], expires_at: '2999-12-31' } });
      expect(r.status).to.equal(201);
      expect(r.body).to.have.all.keys(...ENTITY_KEYS, 'token');
      expect(r.body).to.include({ name: 'ci', revoked: false, active: true, expires_at: '2999-12-31', impersonation: true });
      expect(r.body.scopes).to.deep.equal(['api', 'read_user']);
      expect(r.body.token).to.match(/^[A-Za-z0-9]{20}$/);
      expect(r.body.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      // Stored as a digest only.
      const row = await s.db('personal_access_tokens').where({ id: r.body.id }).first();
      expect(row.token_digest).to.equal(tokenDigest(r.body.token));
      expect(JSON.stringify(row)).to.not.include(r.body.token);

      const me = await s.get('/user', { token: r.body.token });
      expect(me.status).to.equal(200);
      expect(me.body.username).to.equal('alice');
      expect(me.body).to.not.have.property('is_admin');
    });

    it('takes a form body with bracketed scopes', async () => {
      const r = await s.post(base, { form: { name: 'form', 'scopes[]': ['read_user'] } });
      expect(r.status).to.equal(201);
      expect(r.body.scopes).to.deep.equal(['read_user']);
      expect(r.body.expires_at).to.equal(null);
      // A read_user token reads the users API and nothing else.
      expect((await s.get('/user', { token: r.body.token })).status).to.equal(200);
      const denied = await s.get('/version', { token: r.body.token });
      expect(denied.status).to.equal(403);
      expect(denied.body.error).to.equal('insufficient_scope');
    });

    it('needs a name and a valid expiry date', async () => {
      const r = await s.post(base, { json: { scopes: ['api'], expires_at: 'soon' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'name is missing, expires_at is invalid' });
    });

    it('needs scopes, all of them known', async () => {
      const none = await s.post(base, { json: { name: 'x' } });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ message: { scopes: ["can't be blank"] } });
      const empty = await s.post(base, { json: { name: 'x', scopes: [] } });
      expect(empty.body).to.deep.equal({ message: { scopes: ["can't be blank"] } });
      const unknown = await s.post(base, { json: { name: 'x', scopes: ['api', 'write_everything'] } });
      expect(unknown.status).to.equal(400);
      expect(unknown.body).to.deep.equal({ message: { scopes: ['can only contain available scopes'] } });
      expect(await s.db('personal_access_tokens').where({ user_id: alice.user.id, name: 'x' })).to.deep.equal([]);
    });
  });

  describe('GET', () => {
    let bob: UserRow;
    const ids: Record<string, number> = {};

    before(async () => {
      bob = (await s.createUser('bob')).user;
      const make = async (name: string, extra: Record<string, unknown> = {}) => {
        const r = await s.post(`/users/${bob.id}/impersonation_tokens`, { json: { name, scopes: ['api'], ...extra } });
        ids[name] = r.body.id;
      };
      await make('live');
      await make('revoked');
      await make('expired', { expires_at: '2001-01-01' });
      await make('until-today', { expires_at: new Date().toISOString().slice(0, 10) });
      await make('future', { expires_at: '2999-01-01' });
      await s.delete(`/users/${bob.id}/impersonation_tokens/${ids.revoked}`);
    });

    it('lists all of a user’s impersonation tokens, without secrets, by id', async () => {
      const r = await s.get(`/users/${bob.id}/impersonation_tokens`);
      expect(r.status).to.equal(200);
      expect(r.body.map((t: { name: string }) => t.name)).to.deep.equal(['live', 'revoked', 'expired', 'until-today', 'future']);
      for (const t of r.body) expect(t).to.have.all.keys(...ENTITY_KEYS);
      expect(r.headers.get('x-total')).to.equal('5');
      const paged = await s.get(`/users/${bob.id}/impersonation_tokens`, { query: { per_page: 2, page: 2 } });
      expect(paged.body.map((t: { name: string }) => t.name)).to.deep.equal(['expired', 'until-today']);
      expect(paged.headers.get('x-next-page')).to.equal('3');
    });

    it('filters active and inactive tokens (a token is inactive from its expiry day)', async () => {
      const active = await s.get(`/users/${bob.id}/impersonation_tokens`, { query: { state: 'active' } });
      expect(active.body.map((t: { name: string }) => t.name)).to.deep.equal(['live', 'future']);
      expect(active.body.every((t: { active: boolean }) => t.active)).to.equal(true);
      const inactive = await s.get(`/users/${bob.id}/impersonation_tokens`, { query: { state: 'inactive' } });
      expect(inactive.body.map((t: { name: string }) => t.name)).to.deep.equal(['revoked', 'expired', 'until-today']);
      expect(inactive.body.every((t: { active: boolean }) => !t.active)).to.equal(true);
      const bad = await s.get(`/users/${bob.id}/impersonation_tokens`, { query: { state: 'sleeping' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'state does not have a valid value' });
    });

    it('does not list personal access tokens', async () => {
      await createToken(s.db, { userId: bob.id, name: 'personal', scopes: ['api'] });
      const r = await s.get(`/users/${bob.id}/impersonation_tokens`);
      expect(r.body.map((t: { name: string }) => t.name)).to.not.include('personal');
    });

    it('shows one token, and 404 Impersonation Token Not Found for anything else', async () => {
      const r = await s.get(`/users/${bob.id}/impersonation_tokens/${ids.future}`);
      expect(r.status).to.equal(200);
      expect(r.body).to.have.all.keys(...ENTITY_KEYS);
      expect(r.body).to.include({ id: ids.future, name: 'future', expires_at: '2999-01-01', active: true, revoked: false, impersonation: true });

      const personal = await createToken(s.db, { userId: bob.id, name: 'pat', scopes: ['api'] });
      const otherUsers = await s.post(base, { json: { name: 'alices', scopes: ['api'] } });
      for (const id of [personal.row.id, otherUsers.body.id, 999999]) {
        const missing = await s.get(`/users/${bob.id}/impersonation_tokens/${id}`);
        expect(missing.status, String(id)).to.equal(404);
        expect(missing.body).to.deep.equal({ message: '404 Impersonation Token Not Found' });
      }
      const word = await s.get(`/users/${bob.id}/impersonation_tokens/first`);
      expect(word.status).to.equal(400);
      expect(word.body).to.deep.equal({ error: 'impersonation_token_id is invalid' });
    });
  });

  describe('DELETE', () => {
    it('revokes the token (204); it then fails authentication', async () => {
      const created = await s.post(base, { json: { name: 'short-lived', scopes: ['api'] } });
      expect((await s.get('/user', { token: created.body.token })).status).to.equal(200);

      const r = await s.delete(`${base}/${created.body.id}`);
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      const shown = await s.get(`${base}/${created.body.id}`);
      expect(shown.body).to.include({ revoked: true, active: false });

      const after = await s.get('/user', { token: created.body.token });
      expect(after.status).to.equal(401);
      expect(after.body).to.deep.equal({
        error: 'invalid_token',
        error_description: 'Token was revoked. You have to re-authorize from the user.',
      });
    });

    it('answers 404 for a personal access token or an unknown id, and 412 for a stale If-Unmodified-Since', async () => {
      const personal = await createToken(s.db, { userId: alice.user.id, name: 'mine', scopes: ['api'] });
      const pat = await s.delete(`${base}/${personal.row.id}`);
      expect(pat.status).to.equal(404);
      expect(pat.body).to.deep.equal({ message: '404 Impersonation Token Not Found' });
      expect((await s.db('personal_access_tokens').where({ id: personal.row.id }).first()).revoked).to.be.oneOf([0, false]);

      const created = await s.post(base, { json: { name: 'guarded', scopes: ['api'] } });
      const stale = await s.delete(`${base}/${created.body.id}`, { headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
      expect(stale.status).to.equal(412);
      expect(stale.body).to.deep.equal({ message: '412 Precondition Failed' });
      expect((await s.get(`${base}/${created.body.id}`)).body.revoked).to.equal(false);
    });
  });
});
