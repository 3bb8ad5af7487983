// Users' SSH keys: /user/keys, /users/:id/keys (admins) and /keys/:id (admins), with GitLab
// 10.8's shapes, validation messages and lookups; keys made by the real ssh-keygen.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { makeKey, type KeyPair } from '../helpers/ssh_keys.js';
import type { UserRow } from '../../src/store/rows.js';

type Account = { user: UserRow; token: string };
const KEY_FIELDS = ['id', 'title', 'key', 'created_at'];
const FORBIDDEN_TYPE = 'type is forbidden. Must be RSA, DSA, ECDSA, or ED25519';

/** The key text without its comment: what is stored when the comment is one word. */
const bare = (k: KeyPair) => k.publicKey.split(' ').slice(0, 2).join(' ');

describe('SSH keys API', function () {
  this.timeout(60_000);
  let s: TestServer;
  let alice: Account;
  let bob: Account;
  let ed: KeyPair;
  let rsa: KeyPair;
  let ecdsa: KeyPair;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    [ed, rsa, ecdsa] = await Promise.all([makeKey('ed25519'), makeKey('rsa'), makeKey('ecdsa')]);
  });
  after(async () => s.close());

  describe('POST /user/keys', () => {
    it('adds RSA, ECDSA and Ed25519 keys with GitLab 10.8 fingerprints (MD5, as ssh-keygen -E md5)', async () => {
      for (const k of [ed, rsa, ecdsa]) {
        const r = await s.post('/user/keys', { token: alice.token, json: { title: `my ${k.file}`, key: k.publicKey } });
        expect(r.status, r.text).to.equal(201);
        expect(r.body).to.have.all.keys(...KEY_FIELDS);
        expect(r.body.key).to.equal(k.publicKey);
        expect(r.body.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const row = await s.db('keys').where({ id: r.body.id }).first();
        expect(row).to.include({ type: 'Key', user_id: alice.user.id, fingerprint: k.fingerprint });
      }
    });

    it('keeps only the first word of the comment and joins a key pasted over several lines', async () => {
      const k = await makeKey('ed25519', 'pat@laptop');
      const [type, base64] = k.publicKey.split(' ');
      const broken = `  ${type} ${base64.slice(0, 30)}\n${base64.slice(30)}  pat@laptop second words\n`;
      const r = await s.post('/user/keys', { token: bob.token, form: { title: 'split', key: broken } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.key).to.equal(`${type} ${base64} pat@laptop`);
    });

    it('refuses a key already in use, by anyone, whatever its comment', async () => {
      const same = await s.post('/user/keys', { token: alice.token, json: { title: 'again', key: ed.publicKey } });
      expect(same.status).to.equal(400);
      expect(same.body).to.deep.equal({ message: { fingerprint: ['has already been taken'] } });
      const other = await s.post('/user/keys', { token: bob.token, json: { title: 'mine', key: `${bare(ed)} another-comment` } });
      expect(other.status).to.equal(400);
      expect(other.body).to.deep.equal({ message: { fingerprint: ['has already been taken'] } });
    });

    it('answers GitLab’s validation messages for an invalid key or title', async () => {
      const cases: [Record<string, string>, unknown][] = [
        [
          { title: 'x', key: 'some key' },
          { key: ['is invalid', FORBIDDEN_TYPE], fingerprint: ['cannot be generated'] },
        ],
        [
          { title: 'x', key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ' },
          { fingerprint: ['cannot be generated'], key: [FORBIDDEN_TYPE] },
        ],
        [
          { title: 'x', key: '   ' },
          { key: ["can't be blank", 'is invalid', FORBIDDEN_TYPE], fingerprint: ['cannot be generated'] },
        ],
        [{ title: '', key: (await makeKey()).publicKey }, { title: ["can't be blank"] }],
        [{ title: 't'.repeat(256), key: (await makeKey()).publicKey }, { title: ['is too long (maximum is 255 characters)'] }],
        [
          { title: 'x', key: `ssh-ed25519 ${'A'.repeat(5000)}` },
          { key: ['is too long (maximum is 5000 characters)', FORBIDDEN_TYPE], fingerprint: ['cannot be generated'] },
        ],
      ];
      for (const [json, message] of cases) {
        const r = await s.post('/user/keys', { token: alice.token, json });
        expect(r.status, JSON.stringify(json).slice(0, 80)).to.equal(400);
        expect(r.body, JSON.stringify(json).slice(0, 80)).to.deep.equal({ message });
      }
      const fieldsOrder = await s.post('/user/keys', { token: alice.token, json: { title: '', key: 'nope' } });
      expect(fieldsOrder.text).to.equal(`{"message":{"title":["can't be blank"],"key":["is invalid","${FORBIDDEN_TYPE}"],"fingerprint":["cannot be generated"]}}`);
      // A private key pasted by mistake is not a public key (and is not stored).
      const before = await s.db('keys').count({ n: '*' }).first();
      const priv = await s.post('/user/keys', { token: alice.token, json: { title: 'oops', key: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----' } });
      expect(priv.status).to.equal(400);
      expect(priv.body.message.fingerprint).to.deep.equal(['cannot be generated']);
      expect(await s.db('keys').count({ n: '*' }).first()).to.deep.equal(before);
    });

    it('answers missing parameters as Grape does, and 401 to the anonymous', async () => {
      expect((await s.post('/user/keys', { token: alice.token, json: { title: 't' } })).body).to.deep.equal({ error: 'key is missing' });
      expect((await s.post('/user/keys', { token: alice.token, json: { key: 'k' } })).body).to.deep.equal({ error: 'title is missing' });
      const none = await s.post('/user/keys', { token: alice.token, json: {} });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'key is missing, title is missing' });
      const anon = await s.post('/user/keys', { token: null, json: { title: 't', key: ed.publicKey } });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
    });
  });

  describe('GET and DELETE /user/keys', () => {
    it('lists only the signed-in user’s keys, paginated, in id order', async () => {
      const r = await s.get('/user/keys', { token: alice.token, query: { per_page: 2 } });
      expect(r.status).to.equal(200);
      expect(r.headers.get('x-total')).to.equal('3');
      expect(r.headers.get('x-next-page')).to.equal('2');
      expect(r.body.map((k: { key: string }) => k.key)).to.deep.equal([ed.publicKey, rsa.publicKey]);
      const bobs = await s.get('/user/keys', { token: bob.token });
      expect(bobs.body, JSON.stringify(bobs.body)).to.have.length(1);
    });

    it('shows one own key; another user’s key is 404 Key Not Found; a word is 400', async () => {
      const [first] = (await s.get('/user/keys', { token: alice.token })).body;
      const mine = await s.get(`/user/keys/${first.id}`, { token: alice.token });
      expect(mine.status).to.equal(200);
      expect(mine.body).to.deep.equal(first);
      const theirs = await s.get(`/user/keys/${first.id}`, { token: bob.token });
      expect(theirs.status).to.equal(404);
      expect(theirs.body).to.deep.equal({ message: '404 Key Not Found' });
      const word = await s.get('/user/keys/first', { token: alice.token });
      expect(word.status).to.equal(400);
      expect(word.body).to.deep.equal({ error: 'key_id is invalid' });
    });

    it('deletes an own key (204), then 404; 412 with a stale If-Unmodified-Since; the key is free again', async () => {
      const k = await makeKey('ecdsa');
      const { body } = await s.post('/user/keys', { token: bob.token, json: { title: 'temp', key: k.publicKey } });
      const stale = await s.delete(`/user/keys/${body.id}`, { token: bob.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(stale.status).to.equal(412);
      expect(stale.body).to.deep.equal({ message: '412 Precondition Failed' });
      const notTheirs = await s.delete(`/user/keys/${body.id}`, { token: alice.token });
      expect(notTheirs.status).to.equal(404);
      expect(notTheirs.body).to.deep.equal({ message: '404 Key Not Found' });
      const r = await s.delete(`/user/keys/${body.id}`, { token: bob.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      const again = await s.delete(`/user/keys/${body.id}`, { token: bob.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 Key Not Found' });
      expect((await s.post('/user/keys', { token: alice.token, json: { title: 'reused', key: k.publicKey } })).status).to.equal(201);
    });

    it('lets a read_user token read the keys but not add one', async () => {
      const reader = await s.createUser('reader', { scopes: ['read_user'] });
      expect((await s.get('/user/keys', { token: reader.token })).status).to.equal(200);
      const write = await s.post('/user/keys', { token: reader.token, json: { title: 't', key: (await makeKey()).publicKey } });
      expect(write.status).to.equal(403);
      expect(write.body.error).to.equal('insufficient_scope');
    });
  });

  describe('/users/:id/keys (admins)', () => {
    it('is for admins only: 401 anonymous, 403 others (their own keys included)', async () => {
      const paths: [string, string][] = [
        ['GET', `/users/${alice.user.id}/keys`],
        ['POST', `/users/${alice.user.id}/keys`],
        ['DELETE', `/users/${alice.user.id}/keys/1`],
        ['GET', '/keys/1'],
      ];
      for (const [method, p] of paths) {
        const anon = await s.request(method, p, { token: null });
        expect(anon.status, `${method} ${p}`).to.equal(401);
        expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
        const user = await s.request(method, p, { token: alice.token });
        expect(user.status, `${method} ${p}`).to.equal(403);
        expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      }
    });

    it('lists, adds and deletes a user’s keys; unknown users and keys are 404', async () => {
      const list = await s.get(`/users/${alice.user.id}/keys`);
      expect(list.status).to.equal(200);
      expect(list.body.map((k: { key: string }) => k.key)).to.include.members([ed.publicKey, rsa.publicKey, ecdsa.publicKey]);
      const k = await makeKey('rsa');
      const added = await s.post(`/users/${bob.user.id}/keys`, { json: { title: 'by admin', key: k.publicKey } });
      expect(added.status, added.text).to.equal(201);
      expect(added.body).to.have.all.keys(...KEY_FIELDS);
      expect((await s.get('/user/keys', { token: bob.token })).body.map((x: { id: number }) => x.id)).to.include(added.body.id);
      const dup = await s.post(`/users/${bob.user.id}/keys`, { json: { title: 'dup', key: k.publicKey } });
      expect(dup.status).to.equal(400);
      expect(dup.body).to.deep.equal({ message: { fingerprint: ['has already been taken'] } });

      for (const [method, p] of [
        ['GET', '/users/999999/keys'],
        ['POST', '/users/999999/keys'],
        ['DELETE', '/users/999999/keys/1'],
      ] as const) {
        const r = await s.request(method, p, method === 'POST' ? { json: { title: 't', key: k.publicKey } } : {});
        expect(r.status, `${method} ${p}`).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 User Not Found' });
      }
      const wrongOwner = await s.delete(`/users/${alice.user.id}/keys/${added.body.id}`);
      expect(wrongOwner.status).to.equal(404);
      expect(wrongOwner.body).to.deep.equal({ message: '404 Key Not Found' });
      const missing = await s.post(`/users/${bob.user.id}/keys`, { json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'key is missing, title is missing' });
      expect((await s.delete(`/users/${bob.user.id}/keys/${added.body.id}`)).status).to.equal(204);
      expect((await s.get(`/users/${bob.user.id}/keys`)).body.map((x: { id: number }) => x.id)).to.not.include(added.body.id);
    });

    it('GET /keys/:id shows any key with its user (UserPublic); a missing one is 404 Not found', async () => {
      const [first] = (await s.get('/user/keys', { token: alice.token })).body;
      const r = await s.get(`/keys/${first.id}`);
      expect(r.status).to.equal(200);
      expect(r.body).to.have.all.keys(...KEY_FIELDS, 'user');
      expect(r.body.user.username).to.equal('alice');
      expectSchema(r.body.user, 'public_api/v4/user/public.json');
      for (const id of ['999999', 'abc']) {
        const missing = await s.get(`/keys/${id}`);
        expect(missing.status, id).to.equal(404);
        expect(missing.body).to.deep.equal({ message: '404 Not found' });
      }
    });
  });

  describe('deleting a user', () => {
    it('deletes the user’s keys, so the key can be used again', async () => {
      const carol = await s.createUser('carol');
      const k = await makeKey();
      const { body } = await s.post('/user/keys', { token: carol.token, json: { title: 'c', key: k.publicKey } });
      expect((await s.delete(`/users/${carol.user.id}`)).status).to.equal(204);
      expect(await s.db('keys').where({ id: body.id }).first()).to.equal(undefined);
      expect((await s.post('/user/keys', { token: bob.token, json: { title: 'mine now', key: k.publicKey } })).status).to.equal(201);
    });
  });
  describe('key restrictions (the *_key_restriction settings)', () => {
    const restrict = async (json: Record<string, number>) => expect((await s.put('/application/settings', { json })).status).to.equal(200);
    afterEach(() => restrict({ rsa_key_restriction: 0, dsa_key_restriction: 0, ecdsa_key_restriction: 0, ed25519_key_restriction: 0 }));

    it("refuses a key smaller than its type's minimum, and a forbidden type, with GitLab's messages", async () => {
      await restrict({ rsa_key_restriction: 4096, ed25519_key_restriction: -1 });
      const [small, edKey] = await Promise.all([makeKey('rsa'), makeKey('ed25519')]);
      const r = await s.post('/user/keys', { token: bob.token, json: { title: 'small', key: small.publicKey } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { key: ['must be at least 4096 bits'] } });
      const f = await s.post('/user/keys', { token: bob.token, json: { title: 'ed', key: edKey.publicKey } });
      expect(f.status).to.equal(400);
      expect(f.body).to.deep.equal({ message: { key: ['type is forbidden. Must be RSA, DSA, or ECDSA'] } });
      expect(await s.db('keys').whereIn('title', ['small', 'ed'])).to.deep.equal([]);
      await restrict({ rsa_key_restriction: 2048 });
      expect((await s.post('/user/keys', { token: bob.token, json: { title: 'small', key: small.publicKey } })).status).to.equal(201);
    });
  });
});
