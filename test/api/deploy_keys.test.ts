// Deploy keys: the instance list (admins) and every project operation of the spec, with
// `can_push` per project, the join rule for a key that exists elsewhere, GitLab 10.8's
// statuses and bodies, and keys leaving with the last project that used them.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { makeKey, type KeyPair } from '../helpers/ssh_keys.js';
import { createProject } from '../helpers/projects.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER } from '../../src/policy/levels.js';
import type { UserRow } from '../../src/store/rows.js';

type Account = { user: UserRow; token: string };
const FIELDS = ['id', 'title', 'key', 'created_at', 'can_push'];
const FORBIDDEN_TYPE = 'type is forbidden. Must be RSA, DSA, ECDSA, or ED25519';

describe('Deploy keys API', function () {
  this.timeout(60_000);
  let s: TestServer;
  let owner: Account; // owns projects a and b
  let dev: Account; // developer of a
  let other: Account; // owns project c, no access to a or b
  let a: number;
  let b: number;
  let c: number;
  let k1: KeyPair;

  const keys = (project: number, token = owner.token) => s.get(`/projects/${project}/deploy_keys`, { token });
  const add = (project: number, json: Record<string, unknown>, token = owner.token) => s.post(`/projects/${project}/deploy_keys`, { token, json });

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('olga');
    dev = await s.createUser('dev');
    other = await s.createUser('otto');
    a = (await createProject(s, owner.token, { name: 'a', visibility: 'private' })).id;
    b = (await createProject(s, owner.token, { name: 'b', visibility: 'private' })).id;
    c = (await createProject(s, other.token, { name: 'c', visibility: 'private' })).id;
    await insertMember(s.db, { sourceType: 'project', sourceId: a, userId: dev.user.id, accessLevel: DEVELOPER });
    k1 = await makeKey('ed25519', 'deployer@ci');
  });
  after(async () => s.close());

  describe('access', () => {
    it('GET /deploy_keys is for admins: 401 anonymous, 403 others', async () => {
      const anon = await s.get('/deploy_keys', { token: null });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
      const user = await s.get('/deploy_keys', { token: owner.token });
      expect(user.status).to.equal(403);
      expect(user.body).to.deep.equal({ message: '403 Forbidden' });
    });

    it('project routes need a master: 401 anonymous, 404 to a non-member, 403 to a developer', async () => {
      const routes: [string, string][] = [
        ['GET', `/projects/${a}/deploy_keys`],
        ['GET', `/projects/${a}/deploy_keys/1`],
        ['POST', `/projects/${a}/deploy_keys`],
        ['PUT', `/projects/${a}/deploy_keys/1`],
        ['DELETE', `/projects/${a}/deploy_keys/1`],
        ['POST', `/projects/${a}/deploy_keys/1/enable`],
      ];
      for (const [method, p] of routes) {
        const anon = await s.request(method, p, { token: null });
        expect(anon.status, `${method} ${p}`).to.equal(401);
        expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
        const stranger = await s.request(method, p, { token: other.token });
        expect(stranger.status, `${method} ${p}`).to.equal(404);
        expect(stranger.body).to.deep.equal({ message: '404 Project Not Found' });
        const developer = await s.request(method, p, { token: dev.token });
        expect(developer.status, `${method} ${p}`).to.equal(403);
        expect(developer.body).to.deep.equal({ message: '403 Forbidden' });
      }
    });
  });

  describe('POST /projects/:id/deploy_keys', () => {
    it('adds a key (201, read-only unless can_push), JSON or form', async () => {
      const r = await add(a, { title: 'ci', key: k1.publicKey });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.have.all.keys(...FIELDS);
      expect(r.body).to.include({ title: 'ci', key: k1.publicKey, can_push: false });
      const row = await s.db('keys').where({ id: r.body.id }).first();
      expect(row).to.include({ type: 'DeployKey', user_id: owner.user.id, fingerprint: k1.fingerprint });
      const k2 = await makeKey('rsa');
      const form = await s.post(`/projects/${a}/deploy_keys`, { token: owner.token, form: { title: 'writer', key: k2.publicKey, can_push: 'true' } });
      expect(form.status, form.text).to.equal(201);
      expect(form.body.can_push).to.equal(true);
    });

    it('answers the key already in this project, unchanged, with 201', async () => {
      const before = (await keys(a)).body.find((k: { key: string }) => k.key === k1.publicKey);
      const r = await add(a, { title: 'renamed?', key: `  ${k1.publicKey}  `, can_push: true });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal(before);
    });

    it('joins an existing key to another project of the caller, with can_push per project', async () => {
      const r = await add(b, { title: 'ignored', key: k1.publicKey, can_push: true });
      expect(r.status, r.text).to.equal(201);
      const inA = (await keys(a)).body.find((k: { key: string }) => k.key === k1.publicKey);
      expect(r.body).to.deep.equal({ ...inA, can_push: true });
      expect(inA.can_push).to.equal(false);
      expect(Number((await s.db('keys').where({ fingerprint: k1.fingerprint }).count({ n: '*' }).first())?.n)).to.equal(1); // a string on PostgreSQL
    });

    it('refuses a key that exists only in projects the caller cannot reach, and a user’s key', async () => {
      const r = await add(c, { title: 'mine', key: k1.publicKey }, other.token);
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { 'deploy_key.fingerprint': ['has already been taken'] } });
      const userKey = await makeKey('ecdsa');
      expect((await s.post('/user/keys', { token: other.token, json: { title: 'u', key: userKey.publicKey } })).status).to.equal(201);
      const asDeploy = await add(c, { title: 'd', key: userKey.publicKey }, other.token);
      expect(asDeploy.status).to.equal(400);
      expect(asDeploy.body).to.deep.equal({ message: { 'deploy_key.fingerprint': ['has already been taken'] } });
      expect((await keys(c, other.token)).body).to.deep.equal([]);
    });

    it('answers GitLab’s messages for invalid input, and stores nothing', async () => {
      const before = await s.db('keys').count({ n: '*' }).first();
      const invalid = await add(a, { title: 'x', key: 'ssh-rsa not-a-key' });
      expect(invalid.status).to.equal(400);
      expect(invalid.body).to.deep.equal({ message: { 'deploy_key.fingerprint': ['cannot be generated'], 'deploy_key.key': [FORBIDDEN_TYPE] } });
      const blankTitle = await add(a, { title: '', key: (await makeKey()).publicKey });
      expect(blankTitle.body).to.deep.equal({ message: { 'deploy_key.title': ["can't be blank"] } });
      const missing = await add(a, {});
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'key is missing, title is missing' });
      const badPush = await add(a, { title: 't', key: (await makeKey()).publicKey, can_push: 'maybe' });
      expect(badPush.status).to.equal(400);
      expect(badPush.body).to.deep.equal({ error: 'can_push is invalid' });
      expect(await s.db('keys').count({ n: '*' }).first()).to.deep.equal(before);
    });
  });

  describe('GET, PUT, DELETE and enable', () => {
    it('lists a project’s keys with can_push, and every key to admins', async () => {
      const list = await keys(a);
      expect(list.status).to.equal(200);
      expect(list.headers.get('x-total')).to.equal('2');
      expect(list.body.map((k: { title: string; can_push: boolean }) => [k.title, k.can_push])).to.deep.equal([
        ['ci', false],
        ['writer', true],
      ]);
      const all = await s.get('/deploy_keys');
      expect(all.status).to.equal(200);
      expect(all.body).to.have.length(2);
      for (const k of all.body) expect(k).to.have.all.keys('id', 'title', 'key', 'created_at');
    });

    it('shows one key of the project; one not enabled here is 404 Not found; a word is 400', async () => {
      const [first] = (await keys(a)).body;
      const r = await s.get(`/projects/${a}/deploy_keys/${first.id}`, { token: owner.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal(first);
      const writer = (await keys(a)).body[1];
      const notHere = await s.get(`/projects/${b}/deploy_keys/${writer.id}`, { token: owner.token });
      expect(notHere.status).to.equal(404);
      expect(notHere.body).to.deep.equal({ message: '404 Not found' });
      const word = await s.get(`/projects/${a}/deploy_keys/abc`, { token: owner.token });
      expect(word.status).to.equal(400);
      expect(word.body).to.deep.equal({ error: 'key_id is invalid' });
    });

    it('PUT changes the title everywhere and can_push in this project only', async () => {
      const [ci] = (await keys(a)).body;
      const r = await s.put(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token, json: { title: 'ci key', can_push: true } });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.deep.equal({ ...ci, title: 'ci key', can_push: true });
      const inB = (await keys(b)).body[0];
      expect(inB).to.include({ title: 'ci key', can_push: true });
      const off = await s.put(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token, json: { can_push: false } });
      expect(off.body).to.include({ title: 'ci key', can_push: false });
      expect((await keys(b)).body[0].can_push).to.equal(true);
    });

    it('PUT answers 400 without a change or with a blank title, 404 Not found for a key not here', async () => {
      const [ci] = (await keys(a)).body;
      const none = await s.put(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token, json: {} });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'title, can_push are missing, at least one parameter must be provided' });
      const blank = await s.put(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token, json: { title: '' } });
      expect(blank.status).to.equal(400);
      expect(blank.body).to.deep.equal({ message: { 'deploy_key.title': ["can't be blank"] } });
      const long = await s.put(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token, json: { title: 'x'.repeat(256) } });
      expect(long.body).to.deep.equal({ message: { 'deploy_key.title': ['is too long (maximum is 255 characters)'] } });
      expect((await keys(a)).body[0].title).to.equal('ci key');
      const missing = await s.put(`/projects/${a}/deploy_keys/999999`, { token: owner.token, json: { title: 'x' } });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
    });

    it('enable: a key of the caller’s other project (201, read-only here); twice is fine; out of reach is 404', async () => {
      const writer = (await keys(a)).body[1];
      const r = await s.post(`/projects/${b}/deploy_keys/${writer.id}/enable`, { token: owner.token });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.deep.equal({ id: writer.id, title: writer.title, key: writer.key, created_at: writer.created_at });
      expect((await keys(b)).body.find((k: { id: number }) => k.id === writer.id).can_push).to.equal(false);
      expect((await s.post(`/projects/${b}/deploy_keys/${writer.id}/enable`, { token: owner.token })).status).to.equal(201);
      expect((await keys(b)).body).to.have.length(2);

      const theirs = await s.post(`/projects/${c}/deploy_keys/${writer.id}/enable`, { token: other.token });
      expect(theirs.status).to.equal(404);
      expect(theirs.body).to.deep.equal({ message: '404 Deploy Key Not Found' });
      const unknown = await s.post(`/projects/${b}/deploy_keys/999999/enable`, { token: owner.token });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal({ message: '404 Deploy Key Not Found' });
      // An admin reaches every project, so may enable any key.
      const admin = await s.post(`/projects/${c}/deploy_keys/${writer.id}/enable`);
      expect(admin.status).to.equal(201);
      expect((await keys(c, other.token)).body.map((k: { id: number }) => k.id)).to.deep.equal([writer.id]);
    });

    it('DELETE removes the key from the project; the key goes with its last project', async () => {
      const [ci] = (await keys(a)).body;
      const stale = await s.delete(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(stale.status).to.equal(412);
      expect(stale.body).to.deep.equal({ message: '412 Precondition Failed' });
      const r = await s.delete(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token });
      expect(r.status).to.equal(204);
      expect((await keys(a)).body.map((k: { id: number }) => k.id)).to.not.include(ci.id);
      expect((await keys(b)).body.map((k: { id: number }) => k.id)).to.include(ci.id);
      const again = await s.delete(`/projects/${a}/deploy_keys/${ci.id}`, { token: owner.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 Deploy Key Not Found' });
      expect((await s.delete(`/projects/${b}/deploy_keys/${ci.id}`, { token: owner.token })).status).to.equal(204);
      const gone = await s.get(`/keys/${ci.id}`);
      expect(gone.status).to.equal(404);
      expect(gone.body).to.deep.equal({ message: '404 Not found' });
    });

    it('deleting a project deletes the keys only it used, and keeps the others', async () => {
      const only = await makeKey();
      const onlyId = (await add(b, { title: 'only b', key: only.publicKey })).body.id;
      const writer = (await keys(a)).body.find((k: { title: string }) => k.title === 'writer');
      expect((await s.delete(`/projects/${b}`, { token: owner.token })).status).to.equal(202);
      expect((await s.get(`/keys/${onlyId}`)).status).to.equal(404);
      expect((await s.get(`/keys/${writer.id}`)).status).to.equal(200);
      // GET /keys/:id shows a deploy key with its creator.
      expect((await s.get(`/keys/${writer.id}`)).body.user.username).to.equal('olga');
    });
  });
});
