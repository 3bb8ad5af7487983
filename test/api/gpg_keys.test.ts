// Users' GPG keys: /user/gpg_keys and /users/:id/gpg_keys (admins), with GitLab 10.8's shapes
// (`{id, key, created_at}`), the GpgKey model's validation messages, subkeys, revoke (202) and
// delete (204); keys made by the openpgp library, as a client's gpg would export them.
import { expect } from 'chai';
import { generateKey } from 'openpgp';
import { bootServer, type TestServer } from '../helpers/server.js';
import { openApiSchemas, type SchemaCheck } from '../helpers/openapi_schemas.js';
import type { UserRow } from '../../src/store/rows.js';

type Account = { user: UserRow; token: string };
const PREFIX = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
const SUFFIX = '-----END PGP PUBLIC KEY BLOCK-----';
const FORMAT = `is invalid. A valid public GPG key begins with '${PREFIX}' and ends with '${SUFFIX}'`;

async function makeGpgKey(email: string): Promise<{ publicKey: string; privateKey: string }> {
  return generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ name: email.split('@')[0], email }], format: 'armored' });
}

describe('GPG keys API', function () {
  this.timeout(60_000);
  let s: TestServer;
  let alice: Account;
  let bob: Account;
  let first: string;
  let schema: SchemaCheck;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    first = (await makeGpgKey('alice@example.com')).publicKey;
    schema = await openApiSchemas(s);
  });
  after(async () => s.close());

  describe('POST /user/gpg_keys', () => {
    it('adds an armored public key, stripped, with its primary key id, fingerprint and subkey', async () => {
      const r = await s.post('/user/gpg_keys', { token: alice.token, json: { key: `\n  ${first}\n\n` } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.have.all.keys('id', 'key', 'created_at');
      expect(r.body.key).to.equal(first.trim());
      schema(r.body, 'GPGKey');
      expect(r.body.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const row = await s.db('gpg_keys').where({ id: r.body.id }).first();
      expect(row.user_id).to.equal(alice.user.id);
      expect(row.fingerprint).to.match(/^[0-9A-F]{40}$/);
      expect(row.primary_keyid).to.equal(row.fingerprint.slice(-16));
      const subkeys = await s.db('gpg_key_subkeys').where({ gpg_key_id: r.body.id });
      expect(subkeys).to.have.length(1);
      expect(subkeys[0].keyid).to.equal(subkeys[0].fingerprint.slice(-16));
    });

    it('refuses the same key again (its text, or another armor of it) with the GpgKey model’s messages', async () => {
      const same = await s.post('/user/gpg_keys', { token: bob.token, json: { key: first } });
      expect(same.status).to.equal(400);
      expect(same.body).to.deep.equal({ message: { key: ['has already been taken'] } });
      // The same key armored again (another line break inside the block): the key's ids are taken.
      const rewrapped = first.trim().replace(/\n\n/, '\nComment: again\n\n');
      const other = await s.post('/user/gpg_keys', { token: bob.token, json: { key: rewrapped } });
      expect(other.status, other.text).to.equal(400);
      expect(other.body).to.deep.equal({ message: { fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] } });
    });

    it('answers 400 with 10.8’s messages for a text that is not one public key block, and stores nothing', async () => {
      const before = await s.db('gpg_keys').count({ n: '*' }).first();
      const { publicKey, privateKey } = await makeGpgKey('bob@example.com');
      const cases: [string, unknown][] = [
        ['', { key: ["can't be blank", FORMAT] }],
        ['   ', { key: ["can't be blank", FORMAT] }],
        ['not a key', { key: [FORMAT] }],
        [privateKey, { key: [FORMAT] }],
        [`${publicKey.trim()}\n${publicKey.trim()}`, { key: [FORMAT] }],
        [`${PREFIX}\n\nnot base64 at all\n${SUFFIX}`, { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] }],
      ];
      for (const [key, message] of cases) {
        const r = await s.post('/user/gpg_keys', { token: bob.token, json: { key } });
        expect(r.status, key.slice(0, 40)).to.equal(400);
        expect(r.body, key.slice(0, 40)).to.deep.equal({ message });
      }
      expect(await s.db('gpg_keys').count({ n: '*' }).first()).to.deep.equal(before);
      const nul = await s.post('/user/gpg_keys', { token: bob.token, json: { key: `${publicKey}\u0000` } });
      expect(nul.status).to.equal(400);
      expect(nul.body).to.deep.equal({ error: 'key is invalid' });
      const none = await s.post('/user/gpg_keys', { token: bob.token, json: {} });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'key is missing' });
      const anon = await s.post('/user/gpg_keys', { token: null, json: { key: publicKey } });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
    });
  });

  describe('GET, DELETE and revoke /user/gpg_keys', () => {
    it('lists only the signed-in user’s keys, paginated, in id order, and shows one', async () => {
      const second = await s.post('/user/gpg_keys', { token: alice.token, json: { key: (await makeGpgKey('alice@example.com')).publicKey } });
      expect(second.status).to.equal(201);
      const r = await s.get('/user/gpg_keys', { token: alice.token, query: { per_page: 1 } });
      expect(r.status).to.equal(200);
      expect(r.headers.get('x-total')).to.equal('2');
      expect(r.headers.get('x-next-page')).to.equal('2');
      expect(r.body[0].key).to.equal(first.trim());
      schema(r.body, 'GPGKey', true);
      expect((await s.get('/user/gpg_keys', { token: bob.token })).body).to.deep.equal([]);
      const one = await s.get(`/user/gpg_keys/${second.body.id}`, { token: alice.token });
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.equal(second.body);
      const theirs = await s.get(`/user/gpg_keys/${second.body.id}`, { token: bob.token });
      expect(theirs.status).to.equal(404);
      expect(theirs.body).to.deep.equal({ message: '404 GPG Key Not Found' });
      for (const id of ['first', '99999999999999']) {
        const word = await s.get(`/user/gpg_keys/${id}`, { token: alice.token });
        expect(word.status, id).to.equal(400);
        expect(word.body).to.deep.equal({ error: 'key_id is invalid' });
      }
    });

    it('deletes an own key (204) with its subkeys, then 404; the key may be added again', async () => {
      const { publicKey } = await makeGpgKey('bob@example.com');
      const { body } = await s.post('/user/gpg_keys', { token: bob.token, json: { key: publicKey } });
      const notTheirs = await s.delete(`/user/gpg_keys/${body.id}`, { token: alice.token });
      expect(notTheirs.status).to.equal(404);
      expect(notTheirs.body).to.deep.equal({ message: '404 GPG Key Not Found' });
      const r = await s.delete(`/user/gpg_keys/${body.id}`, { token: bob.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect(await s.db('gpg_key_subkeys').where({ gpg_key_id: body.id })).to.deep.equal([]);
      const again = await s.delete(`/user/gpg_keys/${body.id}`, { token: bob.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 GPG Key Not Found' });
      expect((await s.post('/user/gpg_keys', { token: alice.token, json: { key: publicKey } })).status).to.equal(201);
    });

    it('revokes an own key: 202 with the bare status as body, and the key is gone', async () => {
      const { body } = await s.post('/user/gpg_keys', { token: bob.token, json: { key: (await makeGpgKey('bob@example.com')).publicKey } });
      const notTheirs = await s.post(`/user/gpg_keys/${body.id}/revoke`, { token: alice.token });
      expect(notTheirs.status).to.equal(404);
      expect(notTheirs.body).to.deep.equal({ message: '404 GPG Key Not Found' });
      const r = await s.post(`/user/gpg_keys/${body.id}/revoke`, { token: bob.token });
      expect(r.status).to.equal(202);
      expect(r.body).to.equal(202);
      expect(await s.db('gpg_keys').where({ id: body.id }).first()).to.equal(undefined);
      const again = await s.post(`/user/gpg_keys/${body.id}/revoke`, { token: bob.token });
      expect(again.status).to.equal(404);
    });

    it('lets a read_user token read the keys but not add one', async () => {
      const reader = await s.createUser('reader', { scopes: ['read_user'] });
      expect((await s.get('/user/gpg_keys', { token: reader.token })).status).to.equal(200);
      const write = await s.post('/user/gpg_keys', { token: reader.token, json: { key: first } });
      expect(write.status).to.equal(403);
      expect(write.body.error).to.equal('insufficient_scope');
    });
  });

  describe('/users/:id/gpg_keys (admins)', () => {
    it('is for admins only: 401 anonymous, 403 others', async () => {
      for (const [method, p] of [
        ['GET', `/users/${alice.user.id}/gpg_keys`],
        ['GET', `/users/${alice.user.id}/gpg_keys/1`],
        ['POST', `/users/${alice.user.id}/gpg_keys`],
        ['DELETE', `/users/${alice.user.id}/gpg_keys/1`],
        ['POST', `/users/${alice.user.id}/gpg_keys/1/revoke`],
      ] as const) {
        const anon = await s.request(method, p, { token: null });
        expect(anon.status, `${method} ${p}`).to.equal(401);
        expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
        const user = await s.request(method, p, { token: alice.token });
        expect(user.status, `${method} ${p}`).to.equal(403);
        expect(user.body).to.deep.equal({ message: '403 Forbidden' });
      }
    });

    it('lists, adds, revokes and deletes a user’s keys; unknown users and keys are 404', async () => {
      const list = await s.get(`/users/${alice.user.id}/gpg_keys`);
      expect(list.status).to.equal(200);
      expect(list.body.length).to.be.greaterThan(1);
      const added = await s.post(`/users/${bob.user.id}/gpg_keys`, { json: { key: (await makeGpgKey('bob@example.com')).publicKey } });
      expect(added.status, added.text).to.equal(201);
      expect(added.body).to.have.all.keys('id', 'key', 'created_at');
      const one = await s.get(`/users/${bob.user.id}/gpg_keys/${added.body.id}`);
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.equal(added.body);
      const notHers = await s.get(`/users/${alice.user.id}/gpg_keys/${added.body.id}`);
      expect(notHers.status).to.equal(404);
      expect(notHers.body).to.deep.equal({ message: '404 GPG Key Not Found' });
      const dup = await s.post(`/users/${bob.user.id}/gpg_keys`, { json: { key: added.body.key } });
      expect(dup.status).to.equal(400);
      expect(dup.body).to.deep.equal({ message: { key: ['has already been taken'] } });
      for (const [method, p] of [
        ['GET', '/users/999999/gpg_keys'],
        ['GET', '/users/999999/gpg_keys/1'],
        ['POST', '/users/999999/gpg_keys'],
        ['DELETE', '/users/999999/gpg_keys/1'],
        ['POST', '/users/999999/gpg_keys/1/revoke'],
      ] as const) {
        const r = await s.request(method, p, method === 'POST' ? { json: { key: first } } : {});
        expect(r.status, `${method} ${p}`).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 User Not Found' });
      }
      const wrongOwner = await s.post(`/users/${alice.user.id}/gpg_keys/${added.body.id}/revoke`);
      expect(wrongOwner.status).to.equal(404);
      expect(wrongOwner.body).to.deep.equal({ message: '404 GPG Key Not Found' });
      const revoked = await s.post(`/users/${bob.user.id}/gpg_keys/${added.body.id}/revoke`);
      expect(revoked.status).to.equal(202);
      const other = await s.post(`/users/${bob.user.id}/gpg_keys`, { json: { key: (await makeGpgKey('bob@example.com')).publicKey } });
      expect((await s.delete(`/users/${bob.user.id}/gpg_keys/${other.body.id}`)).status).to.equal(204);
      expect((await s.delete(`/users/${bob.user.id}/gpg_keys/${other.body.id}`)).body).to.deep.equal({ message: '404 GPG Key Not Found' });
    });
  });

  describe('deleting a user', () => {
    it('deletes the user’s keys and subkeys, so the key can be added again', async () => {
      const carol = await s.createUser('carol');
      const { publicKey } = await makeGpgKey('carol@example.com');
      const { body } = await s.post('/user/gpg_keys', { token: carol.token, json: { key: publicKey } });
      expect((await s.delete(`/users/${carol.user.id}`)).status).to.equal(204);
      expect(await s.db('gpg_keys').where({ id: body.id }).first()).to.equal(undefined);
      expect(await s.db('gpg_key_subkeys').where({ gpg_key_id: body.id })).to.deep.equal([]);
      expect((await s.post('/user/gpg_keys', { token: bob.token, json: { key: publicKey } })).status).to.equal(201);
    });
  });
});
