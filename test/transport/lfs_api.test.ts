// The Git LFS HTTP API as a client sees it byte by byte (GitLab 10.8's LfsApiController,
// LfsStorageController and LfsLocksApiController, and the LFS spec's basic transfer): batch
// answers per object, uploads checked against oid and size with nothing left behind when
// refused, downloads with ranges, verify, who may do what (reporters, read-only tokens, job
// tokens, deploy keys' LFS tokens, archived projects, LFS off for a project), the locks API's
// statuses and bodies, the legacy API, and the periodic removal of unreferenced objects.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER, GUEST, MASTER, REPORTER } from '../../src/policy/levels.js';
import { issueLfsToken } from '../../src/services/lfs/tokens.js';
import { jobTokenDigest } from '../../src/finders/job_tokens.js';
import { enqueueJob } from '../../src/store/job_queue.js';
import { REMOVE_UNREFERENCED_LFS_OBJECTS } from '../../src/jobs/lfs_unreferenced.js';
import { makeKey } from '../helpers/ssh_keys.js';
import { importAndWait } from '../helpers/archives.js';
import * as tar from 'tar';

const LFS_JSON = 'application/vnd.git-lfs+json';
const sha = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('the Git LFS HTTP API', function () {
  this.timeout(60_000);
  let s: TestServer;
  let base: string;
  let help: string;
  const people: Record<string, { user: any; token: string }> = {};
  let project: any;
  const content = Buffer.from('the bytes of a design file\n');
  const oid = sha(content);

  const auth = (who: string): Record<string, string> => ({ Authorization: basic(who, people[who].token) });
  const lfsDir = () => path.join(s.deps.repos.root, '@wharf', 'lfs');
  const stored = (o: string) => path.join(lfsDir(), 'objects', o.slice(0, 2), o.slice(2, 4), o);
  const tmpFiles = () => (fs.existsSync(path.join(lfsDir(), 'tmp')) ? fs.readdirSync(path.join(lfsDir(), 'tmp')) : []);

  function batch(repo: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${base}/${repo}.git/info/lfs/objects/batch`, {
      method: 'POST',
      headers: { Accept: LFS_JSON, 'Content-Type': LFS_JSON, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }
  function put(repo: string, o: string, size: number | string, body: Buffer | string, headers: Record<string, string> = {}) {
    const bytes = typeof body === 'string' ? body : new Uint8Array(body);
    return fetch(`${base}/${repo}.git/gitlab-lfs/objects/${o}/${size}`, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', ...headers }, body: bytes });
  }
  function post(repo: string, rest: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${base}/${repo}.git/info/lfs/${rest}`, { method: 'POST', headers: { Accept: LFS_JSON, 'Content-Type': LFS_JSON, ...headers }, body: JSON.stringify(body) });
  }

  before(async () => {
    s = await bootServer({ WHARF_LFS_MAX_OBJECT_MB: '1', WHARF_JOB_CONCURRENCY: '0' });
    base = s.url;
    help = `${s.url}/help`;
    for (const name of ['olga', 'mara', 'dave', 'rita', 'gus', 'stan']) people[name] = await s.createUser(name);
    const r = await s.post('/projects', { token: people.olga.token, json: { name: 'designs', visibility: 'private' } });
    project = r.body;
    for (const [name, level] of [
      ['mara', MASTER],
      ['dave', DEVELOPER],
      ['rita', REPORTER],
      ['gus', GUEST],
    ] as const) {
      await insertMember(s.db, { sourceType: 'project', sourceId: project.id, userId: people[name].user.id, accessLevel: level });
    }
  });
  after(async () => s.close());

  describe('batch, upload, download and verify', () => {
    it('offers an upload and a verify action for a new object, with the Authorization header given back', async () => {
      const r = await batch(
        project.path_with_namespace,
        { operation: 'upload', transfers: ['basic'], objects: [{ oid, size: content.length }], hash_algo: 'sha256' },
        auth('dave'),
      );
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal(LFS_JSON);
      const repo = `${s.url}/${project.path_with_namespace}.git`;
      expect(await r.json()).to.deep.equal({
        transfer: 'basic',
        hash_algo: 'sha256',
        objects: [
          {
            oid,
            size: content.length,
            actions: {
              upload: { href: `${repo}/gitlab-lfs/objects/${oid}/${content.length}`, header: auth('dave') },
              verify: { href: `${repo}/info/lfs/objects/verify`, header: auth('dave') },
            },
          },
        ],
      });
    });

    it('answers each malformed or oversized object with an error of its own', async () => {
      const big = 'b'.repeat(64);
      const r = await batch(
        project.path_with_namespace,
        {
          operation: 'upload',
          objects: [
            { oid: 'not-an-oid', size: 3 },
            { oid: 'A'.repeat(64), size: 3 },
            { oid, size: -1 },
            { oid: big, size: 2 * 1024 * 1024 },
          ],
        },
        auth('dave'),
      );
      const objects = (await r.json()).objects;
      expect(objects.map((o: any) => o.error.code)).to.deep.equal([422, 422, 422, 413]);
      expect(objects[3].error.message).to.equal('The object is larger than the 1048576 bytes this server accepts');
    });

    it('stores an upload, then answers download actions, no upload action, ranges and verify', async () => {
      const up = await put(project.path_with_namespace, oid, content.length, content, auth('dave'));
      expect(up.status).to.equal(200);
      expect(fs.readFileSync(stored(oid))).to.deep.equal(content);
      const again = await batch(project.path_with_namespace, { operation: 'upload', objects: [{ oid, size: content.length }] }, auth('dave'));
      expect((await again.json()).objects).to.deep.equal([{ oid, size: content.length }]);
      const down = await batch(
        project.path_with_namespace,
        {
          operation: 'download',
          objects: [
            { oid, size: content.length },
            { oid: 'c'.repeat(64), size: 1 },
          ],
        },
        auth('rita'),
      );
      const [found, missing] = (await down.json()).objects;
      expect(found).to.deep.equal({
        oid,
        size: content.length,
        actions: { download: { href: `${s.url}/${project.path_with_namespace}.git/gitlab-lfs/objects/${oid}`, header: auth('rita') } },
      });
      expect(missing).to.deep.equal({
        oid: 'c'.repeat(64),
        size: 1,
        error: { code: 404, message: "Object does not exist on the server or you don't have permissions to access it" },
      });

      const get = (range?: string) => fetch(found.actions.download.href, { headers: { ...auth('rita'), ...(range ? { Range: range } : {}) } });
      const whole = await get();
      expect(whole.status).to.equal(200);
      expect(whole.headers.get('content-type')).to.equal('application/octet-stream');
      expect(Buffer.from(await whole.arrayBuffer())).to.deep.equal(content);
      const part = await get('bytes=4-8');
      expect(part.status).to.equal(206);
      expect(part.headers.get('content-range')).to.equal(`bytes 4-8/${content.length}`);
      expect(await part.text()).to.equal('bytes');
      const tail = await get('bytes=-6');
      expect(await tail.text()).to.equal(' file\n');
      const beyond = await get(`bytes=${content.length}-`);
      expect(beyond.status).to.equal(416);
      expect(beyond.headers.get('content-range')).to.equal(`bytes */${content.length}`);

      expect((await post(project.path_with_namespace, 'objects/verify', { oid, size: content.length }, auth('dave'))).status).to.equal(200);
      const wrong = await post(project.path_with_namespace, 'objects/verify', { oid, size: 3 }, auth('dave'));
      expect(wrong.status).to.equal(422);
      expect(await wrong.json()).to.deep.equal({ message: `The object is ${content.length} bytes, not 3`, documentation_url: help });
      expect((await post(project.path_with_namespace, 'objects/verify', { oid: 'd'.repeat(64), size: 3 }, auth('dave'))).status).to.equal(404);

      const stats = await s.get(`/projects/${project.id}`, { token: people.olga.token, query: { statistics: true } });
      expect(stats.body.statistics.lfs_objects_size).to.equal(content.length);
    });

    it('refuses batch requests it cannot serve, with their statuses and messages', async () => {
      const repo = project.path_with_namespace;
      const cases: [unknown, number, string][] = [
        ['{not json', 400, 'Invalid JSON in the request body'],
        [{ operation: 'upload', objects: [] }, 404, 'Not found.'],
        [{ operation: 'delete', objects: [{ oid, size: 1 }] }, 422, 'The operation must be "download" or "upload"'],
        [{ operation: 'download', objects: [{ oid, size: 1 }], hash_algo: 'sha512' }, 409, 'The hash algorithm must be sha256'],
        [{ operation: 'download', objects: [{ oid, size: 1 }], transfers: ['tus'] }, 422, 'Only the basic transfer is supported'],
      ];
      for (const [body, status, message] of cases) {
        const r = await batch(repo, body, auth('dave'));
        expect(r.status, JSON.stringify(body)).to.equal(status);
        expect(await r.json()).to.deep.equal({ message, documentation_url: help });
      }
      const many = await batch(repo, { operation: 'download', objects: Array.from({ length: 1001 }, () => ({ oid, size: 1 })) }, auth('dave'));
      expect([many.status, await many.json()]).to.deep.equal([413, { message: 'At most 1000 objects in one batch request', documentation_url: help }]);
      const huge = await batch(repo, JSON.stringify({ operation: 'download', objects: [], padding: 'x'.repeat(1024 * 1024) }), auth('dave'));
      expect([huge.status, await huge.json()]).to.deep.equal([413, { message: 'Request body too large', documentation_url: help }]);
      const legacy = await fetch(`${base}/${repo}.git/info/lfs/objects/${oid}`, { headers: auth('dave') });
      expect(legacy.status).to.equal(501);
      expect(await legacy.json()).to.deep.equal({ message: 'Server supports batch API only, please update your Git LFS client to version 1.0.1 and up.', documentation_url: help });
      const unknown = await fetch(`${base}/${repo}.git/info/lfs/nothing`, { headers: auth('dave') });
      expect(unknown.status).to.equal(404);
    });
  });

  describe('concurrent uploads', () => {
    it('stores one object once when several clients upload it at the same moment', async () => {
      const body = crypto.randomBytes(300_000);
      const o = sha(body);
      const answers = await Promise.all(['olga', 'mara', 'dave', 'olga', 'dave'].map((who) => put(project.path_with_namespace, o, body.length, body, auth(who))));
      expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
      expect(fs.readFileSync(stored(o))).to.deep.equal(body);
      const rows = await s.db('lfs_objects').where({ oid: o });
      expect(rows).to.have.length(1);
      expect(await s.db('lfs_objects_projects').where({ lfs_object_id: rows[0].id })).to.have.length(1);
      const stats = await s.db('project_statistics').where({ project_id: project.id }).first();
      expect(Number(stats.lfs_objects_size)).to.equal(content.length + body.length);
      expect(tmpFiles()).to.deep.equal([]);
    });
  });

  describe('bad uploads', () => {
    it('refuses a wrong size, a wrong hash, a longer body and a cut-off body, keeping nothing in the store or in TMPDIR', async () => {
      const repo = project.path_with_namespace;
      const body = Buffer.from('another object\n');
      const o = sha(body);
      const tmpBefore = fs.readdirSync(os.tmpdir()).sort();
      for (const [size, bytes] of [
        [body.length + 1, body],
        [body.length, Buffer.from('another objecT\n')],
        [body.length - 1, body],
      ] as const) {
        const r = await put(repo, o, size, bytes, auth('dave'));
        expect(r.status).to.equal(422);
        expect(await r.text()).to.equal('Unprocessable entity');
      }
      // A client that goes away mid-body.
      await new Promise<void>((resolve) => {
        const url = new URL(`${base}/${repo}.git/gitlab-lfs/objects/${o}/${body.length * 1000}`);
        const sock = require_net().connect(Number(url.port), url.hostname, () => {
          sock.write(
            `PUT ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${auth('dave').Authorization}\r\nContent-Length: ${body.length * 1000}\r\n\r\n${'x'.repeat(500)}`,
          );
          setTimeout(() => (sock.destroy(), resolve()), 300);
        });
      });
      for (let i = 0; i < 50 && tmpFiles().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(fs.existsSync(stored(o))).to.equal(false);
      expect(tmpFiles()).to.deep.equal([]);
      expect(fs.readdirSync(os.tmpdir()).sort()).to.deep.equal(tmpBefore);
      expect(await s.db('lfs_objects').where({ oid: o }).first()).to.equal(undefined);
    });

    it('refuses an oid that is no SHA-256 or leaves the store, and an object over the limit before reading it', async () => {
      const repo = project.path_with_namespace;
      for (const bad of ['..%2F..%2F..%2Fetc', 'a'.repeat(63), 'A'.repeat(64), `${'a'.repeat(64)}x`]) {
        const r = await put(repo, bad, 3, 'abc', auth('dave'));
        expect(r.status, bad).to.equal(404);
        expect(await r.json()).to.deep.equal({ message: 'Not found.', documentation_url: help });
      }
      const over = await put(repo, 'e'.repeat(64), 2 * 1024 * 1024, 'abc', auth('dave'));
      expect(over.status).to.equal(413);
      expect(await over.json()).to.deep.equal({ message: 'The object is larger than the 1048576 bytes this server accepts', documentation_url: help });
      expect(tmpFiles()).to.deep.equal([]);
    });
  });

  describe('who may', () => {
    const forbidden = () => ({ message: 'Access forbidden. Check your access level.', documentation_url: help });
    const notFound = () => ({ message: 'Not found.', documentation_url: help });

    it('lets readers download and only developers and up upload', async () => {
      const upload = (who: string) => batch(project.path_with_namespace, { operation: 'upload', objects: [{ oid: 'f'.repeat(64), size: 1 }] }, auth(who));
      const download = (who: string) => batch(project.path_with_namespace, { operation: 'download', objects: [{ oid, size: 1 }] }, auth(who));
      for (const who of ['olga', 'mara', 'dave']) expect((await upload(who)).status, who).to.equal(200);
      for (const who of ['rita', 'gus']) {
        const r = await upload(who);
        expect(r.status, who).to.equal(403);
        expect(await r.json()).to.deep.equal(forbidden());
      }
      for (const who of ['olga', 'dave', 'rita']) expect((await download(who)).status, who).to.equal(200);
      const guest = await download('gus'); // guests read no code of a private project
      expect(guest.status).to.equal(403);
      const stranger = await download('stan');
      expect(stranger.status).to.equal(404);
      expect(await stranger.json()).to.deep.equal(notFound());
      // Who may not read the project is refused before the body is read: not a 400 about it.
      const unread = await batch(project.path_with_namespace, '{"broken', auth('stan'));
      expect([unread.status, await unread.json()]).to.deep.equal([404, notFound()]);
      const unreadLock = await post(project.path_with_namespace, 'locks', {}, auth('stan'));
      expect(unreadLock.status).to.equal(404);
      expect((await put(project.path_with_namespace, oid, content.length, content, auth('rita'))).status).to.equal(403);
      const anonymous = await fetch(`${base}/${project.path_with_namespace}.git/gitlab-lfs/objects/${oid}`);
      expect(anonymous.status).to.equal(401);
      expect(await anonymous.text()).to.equal('HTTP Basic: Access denied\n');
    });

    it('refuses uploads with a read_repository token, to an archived project, and everything with LFS off for the project', async () => {
      const reader = await s.createUser('reader', { scopes: ['read_repository'] });
      await insertMember(s.db, { sourceType: 'project', sourceId: project.id, userId: reader.user.id, accessLevel: DEVELOPER });
      const withToken = { Authorization: basic('reader', reader.token) };
      expect((await batch(project.path_with_namespace, { operation: 'download', objects: [{ oid, size: 1 }] }, withToken)).status).to.equal(200);
      expect((await batch(project.path_with_namespace, { operation: 'upload', objects: [{ oid, size: 1 }] }, withToken)).status).to.equal(403);

      const other = (await s.post('/projects', { token: people.olga.token, json: { name: 'old', visibility: 'private' } })).body;
      expect((await s.post(`/projects/${other.id}/archive`, { token: people.olga.token })).status).to.equal(201);
      expect((await batch(other.path_with_namespace, { operation: 'upload', objects: [{ oid, size: 1 }] }, auth('olga'))).status).to.equal(403);
      expect((await batch(other.path_with_namespace, { operation: 'download', objects: [{ oid, size: 1 }] }, auth('olga'))).status).to.equal(200);

      const off = (await s.post('/projects', { token: people.olga.token, json: { name: 'nolfs', visibility: 'private', lfs_enabled: false } })).body;
      expect(off.lfs_enabled).to.equal(false);
      const r = await batch(off.path_with_namespace, { operation: 'download', objects: [{ oid, size: 1 }] }, auth('olga'));
      expect(r.status).to.equal(403);
      expect(await r.json()).to.deep.equal(forbidden());
      expect((await batch(off.path_with_namespace, { operation: 'download', objects: [{ oid, size: 1 }] }, auth('stan'))).status).to.equal(404);
    });

    it('lets a running job download with gitlab-ci-token, never upload, and not once it has ended', async () => {
      const commit = await s.post(`/projects/${project.id}/repository/commits`, {
        token: people.olga.token,
        json: { branch: 'master', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'job:\n  script:\n    - echo hi\n' }] },
      });
      expect(commit.status, commit.text).to.equal(201);
      const pipeline = await s.post(`/projects/${project.id}/pipeline`, { token: people.olga.token, query: { ref: 'master' } });
      expect(pipeline.status, pipeline.text).to.equal(201);
      await s.drainJobs();
      const build = await s.db('ci_builds').where({ project_id: project.id }).first();
      expect(build, 'a pipeline job').to.not.equal(undefined);
      const token = crypto.randomBytes(20).toString('hex');
      await s
        .db('ci_builds')
        .where({ id: build.id })
        .update({ status: 'running', token_digest: jobTokenDigest(token), user_id: people.olga.user.id });
      const job = { Authorization: basic('gitlab-ci-token', token) };
      const down = await fetch(`${base}/${project.path_with_namespace}.git/gitlab-lfs/objects/${oid}`, { headers: job });
      expect(down.status).to.equal(200);
      expect(Buffer.from(await down.arrayBuffer())).to.deep.equal(content);
      expect((await batch(project.path_with_namespace, { operation: 'upload', objects: [{ oid, size: 1 }] }, job)).status).to.equal(403);
      await s.db('ci_builds').where({ id: build.id }).update({ status: 'success' });
      expect((await fetch(`${base}/${project.path_with_namespace}.git/gitlab-lfs/objects/${oid}`, { headers: job })).status).to.equal(401);
    });

    it("takes a deploy key's LFS token: reads where the key is enabled, writes only with can_push", async () => {
      const keys = [await makeKey(), await makeKey()];
      const ids: number[] = [];
      for (const [i, key] of keys.entries()) {
        const r = await s.post(`/projects/${project.id}/deploy_keys`, { token: people.olga.token, json: { title: `k${i}`, key: key.publicKey, can_push: i === 1 } });
        expect(r.status, r.text).to.equal(201);
        ids.push(r.body.id);
      }
      const as = (id: number) => ({ Authorization: basic(`lfs+deploy-key-${id}`, issueLfsToken(s.deps.config, { kind: 'deploy_key', id })) });
      const upload = { operation: 'upload', objects: [{ oid: '9'.repeat(64), size: 1 }] };
      expect((await batch(project.path_with_namespace, { operation: 'download', objects: [{ oid, size: 1 }] }, as(ids[0]))).status).to.equal(200);
      expect((await batch(project.path_with_namespace, upload, as(ids[0]))).status).to.equal(403);
      expect((await batch(project.path_with_namespace, upload, as(ids[1]))).status).to.equal(200);
      // A deploy key is no user: it may not hold locks (Lfs::LockFileService's "You have no permissions").
      const lock = await post(project.path_with_namespace, 'locks', { path: 'by-a-key.bin' }, as(ids[1]));
      expect([lock.status, await lock.json()]).to.deep.equal([403, { message: 'You have no permissions', documentation_url: help }]);
      // A token for another key, an expired one and a forged one open nothing.
      const forged = { Authorization: basic(`lfs+deploy-key-${ids[1]}`, issueLfsToken(s.deps.config, { kind: 'deploy_key', id: ids[0] })) };
      expect((await batch(project.path_with_namespace, upload, forged)).status).to.equal(401);
      const expired = issueLfsToken(s.deps.config, { kind: 'user', id: people.dave.user.id }, Date.now() - 3600_000);
      expect((await batch(project.path_with_namespace, upload, { Authorization: basic('dave', expired) })).status).to.equal(401);
      const live = issueLfsToken(s.deps.config, { kind: 'user', id: people.dave.user.id });
      expect((await batch(project.path_with_namespace, upload, { Authorization: basic('dave', live) })).status).to.equal(200);
      expect((await batch(project.path_with_namespace, upload, { Authorization: basic('rita', live) })).status).to.equal(401);
    });
  });

  describe('the File Locking API', () => {
    let lockId: string;
    const repo = () => project.path_with_namespace;

    it('locks a path (201), refuses a second lock of it (409 with the lock that holds it) and a reporter (403)', async () => {
      const r = await post(repo(), 'locks', { path: 'art/logo.psd', ref: { name: 'refs/heads/master' } }, auth('dave'));
      expect(r.status).to.equal(201);
      expect(r.headers.get('content-type')).to.equal(LFS_JSON);
      const body = await r.json();
      expect(body.lock).to.have.all.keys('id', 'path', 'locked_at', 'owner');
      expect(body.lock).to.deep.include({ path: 'art/logo.psd', owner: { name: people.dave.user.name } });
      expect(body.lock.id).to.be.a('string');
      expect(body.lock.locked_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      lockId = body.lock.id;
      const again = await post(repo(), 'locks', { path: 'art/logo.psd' }, auth('olga'));
      expect(again.status).to.equal(409);
      expect(await again.json()).to.deep.equal({ lock: body.lock, message: 'already locked', documentation_url: help });
      expect((await post(repo(), 'locks', { path: 'x' }, auth('rita'))).status).to.equal(403);
      const blank = await post(repo(), 'locks', { path: '' }, auth('dave'));
      expect(blank.status).to.equal(422);
      expect(await blank.json()).to.deep.equal({ message: "Validation failed: Path can't be blank", documentation_url: help });
    });

    it('lists locks to readers, filtered by path and id, and splits ours from theirs', async () => {
      const list = await fetch(`${base}/${repo()}.git/info/lfs/locks?path=art/logo.psd`, { headers: { Accept: LFS_JSON, ...auth('rita') } });
      expect(list.status).to.equal(200);
      expect((await list.json()).locks.map((l: any) => l.id)).to.deep.equal([lockId]);
      const none = await fetch(`${base}/${repo()}.git/info/lfs/locks?id=999999`, { headers: auth('rita') });
      expect((await none.json()).locks).to.deep.equal([]);
      const mine = await (await post(repo(), 'locks/verify', { ref: { name: 'refs/heads/master' } }, auth('dave'))).json();
      expect(mine.ours.map((l: any) => l.path)).to.deep.equal(['art/logo.psd']);
      expect(mine.theirs).to.deep.equal([]);
      const theirs = await (await post(repo(), 'locks/verify', {}, auth('olga'))).json();
      expect(theirs).to.deep.equal({ ours: [], theirs: mine.ours });
      expect((await post(repo(), 'locks/verify', {}, auth('rita'))).status).to.equal(403);
    });

    it("unlocks for the owner, or with force for a maintainer; refuses others with 10.8's messages", async () => {
      const other = await post(repo(), `locks/${lockId}/unlock`, {}, auth('olga'));
      expect(other.status).to.equal(403);
      expect(await other.json()).to.deep.equal({ message: `art/logo.psd is locked by GitLab User ${people.dave.user.id}`, documentation_url: help });
      const dev = await (await post(repo(), 'locks', { path: 'b.bin' }, auth('olga'))).json();
      const weak = await post(repo(), `locks/${dev.lock.id}/unlock`, { force: true }, auth('dave'));
      expect(weak.status).to.equal(403);
      expect(await weak.json()).to.deep.equal({ message: 'You must have master access to force delete a lock', documentation_url: help });
      const forced = await post(repo(), `locks/${lockId}/unlock`, { force: true }, auth('mara'));
      expect(forced.status).to.equal(200);
      expect((await forced.json()).lock.path).to.equal('art/logo.psd');
      const own = await post(repo(), `locks/${dev.lock.id}/unlock`, {}, auth('olga'));
      expect(own.status).to.equal(200);
      const gone = await post(repo(), `locks/${dev.lock.id}/unlock`, {}, auth('olga'));
      expect(gone.status).to.equal(404);
      expect(await gone.json()).to.deep.equal({ message: 'Lock not found', documentation_url: help });
    });
  });

  describe('export and import', () => {
    it("carries the project's objects in the archive's lfs-objects/ and links them to the imported project", async () => {
      const owner = people.olga.token;
      expect((await s.post(`/projects/${project.id}/export`, { token: owner })).status).to.equal(202);
      await s.drainJobs();
      const res = await fetch(new URL(`/api/v4/projects/${project.id}/export/download`, s.url), { headers: { 'PRIVATE-TOKEN': owner } });
      expect(res.status).to.equal(200);
      const archive = Buffer.from(await res.arrayBuffer());
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-lfs-export-'));
      fs.writeFileSync(path.join(dir, 'a.tar.gz'), archive);
      await tar.x({ file: path.join(dir, 'a.tar.gz'), cwd: dir });
      expect(fs.readFileSync(path.join(dir, 'lfs-objects', oid))).to.deep.equal(content);
      const st = await importAndWait(s, owner, archive, { path: 'designs-copy' });
      expect(st.import_status, JSON.stringify(st)).to.equal('finished');
      const copy = (await s.get(`/projects/${encodeURIComponent('olga/designs-copy')}`, { token: owner, query: { statistics: true } })).body;
      const source = (await s.get(`/projects/${project.id}`, { token: owner, query: { statistics: true } })).body;
      expect(copy.statistics.lfs_objects_size).to.equal(source.statistics.lfs_objects_size);
      const down = await fetch(`${base}/olga/designs-copy.git/gitlab-lfs/objects/${oid}`, { headers: auth('olga') });
      expect(Buffer.from(await down.arrayBuffer())).to.deep.equal(content);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });

  describe('unreferenced objects', () => {
    it('are removed by the periodic job once no project links them, never while a fork still does', async () => {
      const owner = people.olga.token;
      const shared = Buffer.from('kept by a fork\n');
      const lonely = Buffer.from('gone with the project\n');
      const parent = (await s.post('/projects', { token: owner, json: { name: 'parent', visibility: 'private', initialize_with_readme: true } })).body;
      for (const b of [shared, lonely]) expect((await put(parent.path_with_namespace, sha(b), b.length, b, auth('olga'))).status).to.equal(200);
      await insertMember(s.db, { sourceType: 'project', sourceId: parent.id, userId: people.dave.user.id, accessLevel: REPORTER });
      const fork = await s.post(`/projects/${parent.id}/fork`, { token: people.dave.token });
      expect(fork.status, fork.text).to.equal(201);
      const forkRepo = fork.body.path_with_namespace;
      // The fork's copy of the lonely object goes by hand: only the shared one stays linked there.
      const lonelyRow = await s
        .db('lfs_objects')
        .where({ oid: sha(lonely) })
        .first();
      await s.db('lfs_objects_projects').where({ project_id: fork.body.id, lfs_object_id: lonelyRow.id }).delete();
      expect((await s.delete(`/projects/${parent.id}`, { token: owner })).status).to.equal(202);
      await s.drainJobs();
      await enqueueJob(s.db, REMOVE_UNREFERENCED_LFS_OBJECTS, { at: new Date(Date.now() + 2 * 3600_000).toISOString() });
      await s.drainJobs();
      expect(fs.existsSync(stored(sha(lonely)))).to.equal(false);
      expect(
        await s
          .db('lfs_objects')
          .where({ oid: sha(lonely) })
          .first(),
      ).to.equal(undefined);
      const kept = await fetch(`${base}/${forkRepo}.git/gitlab-lfs/objects/${sha(shared)}`, { headers: auth('dave') });
      expect(kept.status).to.equal(200);
      expect(await kept.text()).to.equal('kept by a fork\n');
    });

    it('removes files no row names once a day old, never a recent one', async () => {
      const orphan = (text: string, ageMs: number) => {
        const o = sha(text);
        fs.mkdirSync(path.dirname(stored(o)), { recursive: true });
        fs.writeFileSync(stored(o), text);
        const when = new Date(Date.now() - ageMs);
        fs.utimesSync(stored(o), when, when);
        return o;
      };
      const stale = orphan('left by a crash long ago\n', 2 * 24 * 3600_000);
      const fresh = orphan('being recorded right now\n', 60_000);
      await enqueueJob(s.db, REMOVE_UNREFERENCED_LFS_OBJECTS, {});
      await s.drainJobs();
      expect(fs.existsSync(stored(stale))).to.equal(false);
      expect(fs.existsSync(stored(fresh))).to.equal(true);
      expect(fs.existsSync(stored(oid)), 'a recorded object').to.equal(true);
    });
  });
});

function require_net(): typeof import('node:net') {
  return netModule;
}
import * as netModule from 'node:net';
