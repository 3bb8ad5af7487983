// The cross-cutting HTTP behaviour: health, version, auth, errors, content type, unknown routes.
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';

describe('HTTP basics', () => {
  let s: TestServer;
  before(async () => {
    s = await bootServer();
  });
  after(async () => s.close());

  it('answers the health probes', async () => {
    expect((await s.get('/-/liveness', { token: null })).status).to.equal(200);
    const ready = await s.get('/-/readiness', { token: null });
    expect(ready.status).to.equal(200);
    expect(ready.body.db_check.status).to.equal('ok');
    const health = await s.get('/-/health', { token: null });
    expect(health.status).to.equal(200);
  });

  it('serves /version to a signed-in user with Content-Type exactly application/json', async () => {
    const r = await s.get('/version');
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('application/json');
    expect(r.body).to.have.keys('version', 'revision');
    expect(r.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
    expect(r.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it('needs a user for /version', async () => {
    const r = await s.get('/version', { token: null });
    expect(r.status).to.equal(401);
    expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
  });

  it('accepts the token as header, query parameter and Bearer', async () => {
    expect((await s.get('/version', { token: null, query: { private_token: ROOT_TOKEN } })).status).to.equal(200);
    expect((await s.get('/version', { token: null, headers: { Authorization: `Bearer ${ROOT_TOKEN}` } })).status).to.equal(200);
    expect((await s.get('/version', { token: null, headers: { 'private-token': ROOT_TOKEN } })).status).to.equal(200);
  });

  it('answers 401 for an unknown token, even on public endpoints', async () => {
    const r = await s.get('/projects', { token: 'not-a-token' });
    expect(r.status).to.equal(401);
    expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
  });

  it('answers 401 invalid_token for a revoked or expired token', async () => {
    const { user, token } = await s.createUser('revokee');
    await s.db('personal_access_tokens').where({ user_id: user.id }).update({ revoked: true });
    const revoked = await s.get('/version', { token });
    expect(revoked.status).to.equal(401);
    expect(revoked.body.error).to.equal('invalid_token');
    expect(revoked.body.error_description).to.match(/revoked/);
    expect(revoked.headers.get('www-authenticate')).to.match(/^Bearer realm=/);

    const second = await s.createUser('expiree');
    await s.db('personal_access_tokens').where({ user_id: second.user.id }).update({ expires_at: '2001-01-01' });
    const expired = await s.get('/version', { token: second.token });
    expect(expired.status).to.equal(401);
    expect(expired.body.error_description).to.match(/expired/);
  });

  it('refuses a blocked user with 403', async () => {
    const { user, token } = await s.createUser('blockee');
    await s.db('users').where({ id: user.id }).update({ state: 'blocked' });
    const r = await s.get('/version', { token });
    expect(r.status).to.equal(403);
    expect(r.body).to.deep.equal({ message: '403 Forbidden - Your account has been blocked.' });
  });

  it('limits a read_user token to reading the users API', async () => {
    const { token } = await s.createUser('reader', { scopes: ['read_user'] });
    const r = await s.get('/version', { token });
    expect(r.status).to.equal(403);
    expect(r.body).to.deep.equal({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'api',
    });
    expect((await s.get('/user', { token })).status).to.equal(200);
  });

  it('lets admins act as another user with sudo, and no one else', async () => {
    const { user, token } = await s.createUser('plain');
    const asPlain = await s.get('/user', { query: { sudo: 'plain' } });
    expect(asPlain.status).to.equal(200);
    expect(asPlain.body.username).to.equal('plain');
    const byHeader = await s.get('/user', { headers: { Sudo: String(user.id) } });
    expect(byHeader.body.username).to.equal('plain');

    const notAdmin = await s.get('/user', { token, query: { sudo: 'root' } });
    expect(notAdmin.status).to.equal(403);
    expect(notAdmin.body).to.deep.equal({ message: '403 Forbidden - Must be admin to use sudo' });

    const unknown = await s.get('/user', { query: { sudo: 'nobody-here' } });
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ message: "404 User with ID or username 'nobody-here' Not Found" });

    const anonymous = await s.get('/user', { token: null, query: { sudo: 'plain' } });
    expect(anonymous.status).to.equal(401);
  });

  it('answers unknown routes and methods with 404 {"error":"404 Not Found"}', async () => {
    for (const [method, p] of [
      ['GET', '/nothing/here'],
      ['DELETE', '/version'],
      ['GET', '/api/v4'],
    ] as const) {
      const r = await s.request(method, p);
      expect(r.status, `${method} ${p}`).to.equal(404);
      expect(r.body).to.deep.equal({ error: '404 Not Found' });
    }
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await s.request('POST', '/projects', { headers: { 'Content-Type': 'application/json' }, json: undefined, form: undefined });
    expect(bad.status).to.not.equal(500);
    const res = await fetch(`${s.url}/api/v4/projects`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.equal('application/json');
    expect(await res.json()).to.have.property('error');
  });
});

describe('HTTP body limits', () => {
  let s: TestServer;
  before(async () => {
    s = await bootServer({ WHARF_MAX_BODY_BYTES: '1000' });
  });
  after(async () => s.close());

  it('answers 413 for a body over WHARF_MAX_BODY_BYTES', async () => {
    const r = await s.post('/projects', { json: { name: 'x', description: 'd'.repeat(5000) } });
    expect(r.status).to.equal(413);
    expect(r.body).to.deep.equal({ message: '413 Request Entity Too Large' });
  });
});
