// Rate limits from the throttle_* settings (GitLab 10.8's Rack::Attack config, rack-attack
// 4.4): off by default; per IP for the unauthenticated (a refused token included, and git
// over HTTP with Basic credentials), per user for authenticated API requests; over the limit
// 429 text/plain "Retry later\n" with an integer Retry-After; one budget for all worker
// processes on a store.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { ChildServer, tempDataDir, removeDataDir } from '../helpers/child_server.js';
import { git, repoUrl, tempDir } from '../transport/git_client.js';

// Windows start at multiples of the period since the epoch: a period this long never ends
// while a test runs, so no count restarts halfway.
const PERIOD = 1_000_000_000;

async function expectThrottled(r: Response | { status: number; headers: Headers; text: string }): Promise<void> {
  expect(r.status).to.equal(429);
  expect(r.headers.get('content-type')).to.equal('text/plain');
  expect(r.headers.get('retry-after')).to.equal(String(PERIOD));
  expect(Number.isInteger(Number(r.headers.get('retry-after')))).to.equal(true);
  expect('text' in r && typeof r.text === 'string' ? r.text : await (r as Response).text()).to.equal('Retry later\n');
}

describe('Rate limits', function () {
  this.timeout(120_000);
  let s: TestServer;
  let alice: { token: string };
  let bob: { token: string };

  const settings = async (json: Record<string, unknown>) => {
    const r = await s.put('/application/settings', { json });
    expect(r.status, r.text).to.equal(200);
  };

  beforeEach(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
  });
  afterEach(async () => s?.close());

  it('are off by default', async () => {
    for (let i = 0; i < 30; i++) expect((await s.get('/projects', { token: null })).status).to.equal(200);
    const counted = await s.db('rate_limit_counters').count({ n: '*' }).first();
    expect(Number(counted?.n)).to.equal(0); // PostgreSQL's count is a bigint, read as a string
  });

  it('limit authenticated API requests per user', async () => {
    await settings({ throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 3, throttle_authenticated_api_period_in_seconds: PERIOD });
    for (let i = 0; i < 3; i++) expect((await s.get('/user', { token: alice.token })).status).to.equal(200);
    await expectThrottled(await s.get('/user', { token: alice.token }));
    await expectThrottled(await s.post('/projects', { token: alice.token, json: { name: 'never' } }));
    expect((await s.get('/projects', { query: { search: 'never' } })).body).to.deep.equal([]); // nothing was done
    // Another user, and the anonymous (no unauthenticated limit set), have their own budgets.
    expect((await s.get('/user', { token: bob.token })).status).to.equal(200);
    expect((await s.get('/projects', { token: null })).status).to.equal(200);
    // Switched off, the limit is gone at once.
    await settings({ throttle_authenticated_api_enabled: false });
    expect((await s.get('/user', { token: alice.token })).status).to.equal(200);
  });

  it('limit unauthenticated requests per IP, counting refused tokens, and not signed-in users', async () => {
    await settings({ throttle_unauthenticated_enabled: true, throttle_unauthenticated_requests_per_period: 3, throttle_unauthenticated_period_in_seconds: PERIOD });
    expect((await s.get('/projects', { token: null })).status).to.equal(200);
    const bad = await s.get('/projects', { token: 'not-a-token' });
    expect(bad.status).to.equal(401);
    expect(bad.body).to.deep.equal({ message: '401 Unauthorized' });
    expect((await s.get('/user', { token: null })).status).to.equal(401);
    await expectThrottled(await s.get('/projects', { token: null }));
    await expectThrottled(await s.get('/projects', { token: 'not-a-token' }));
    expect((await s.get('/user', { token: alice.token })).status).to.equal(200);
    // Probes and metrics are never limited.
    expect((await fetch(`${s.url}/-/readiness`)).status).to.equal(200);
    expect((await fetch(`${s.url}/-/metrics`)).status).to.equal(200);
  });

  it('count git over HTTP with Basic credentials as unauthenticated, per IP', async () => {
    const p = (await s.post('/projects', { token: alice.token, json: { name: 'cloned', visibility: 'public' } })).body;
    await settings({ throttle_unauthenticated_enabled: true, throttle_unauthenticated_requests_per_period: 2, throttle_unauthenticated_period_in_seconds: PERIOD });
    const url = `${s.url}/${p.path_with_namespace}.git/info/refs?service=git-upload-pack`;
    expect((await fetch(url)).status).to.equal(200);
    expect((await fetch(url, { headers: { Authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}` } })).status).to.equal(200);
    await expectThrottled(await fetch(url));
    const clone = await git(['clone', '-q', repoUrl(s, p.path_with_namespace, alice.token), path.join(tempDir(), 'c')]);
    expect(clone.code).to.not.equal(0);
    expect(clone.stderr).to.include('429');
  });

  it('limit non-API requests of a token per user when authenticated_web is on', async () => {
    const p = (await s.post('/projects', { token: alice.token, json: { name: 'webbed', visibility: 'public' } })).body;
    await settings({ throttle_authenticated_web_enabled: true, throttle_authenticated_web_requests_per_period: 1, throttle_authenticated_web_period_in_seconds: PERIOD });
    const url = `${s.url}/${p.path_with_namespace}.git/info/refs?service=git-upload-pack`;
    expect((await fetch(url, { headers: { 'PRIVATE-TOKEN': alice.token } })).status).to.equal(200);
    await expectThrottled(await fetch(url, { headers: { 'PRIVATE-TOKEN': alice.token } }));
    expect((await fetch(url, { headers: { 'PRIVATE-TOKEN': bob.token } })).status).to.equal(200);
    expect((await fetch(url)).status).to.equal(200); // the anonymous: no unauthenticated limit set
    expect((await s.get('/user', { token: alice.token })).status).to.equal(200); // the API is another throttle
  });

  it('share one budget between worker processes on the same store', async () => {
    const dir = tempDataDir();
    const a = await ChildServer.start(dir);
    const b = await ChildServer.start(dir);
    try {
      const user = await a.request('POST', '/users', { json: { username: 'carol', name: 'Carol', email: 'carol@example.com', password: 'long-enough-pw' } });
      expect(user.status, user.text).to.equal(201);
      const token = (await a.request('POST', `/users/${user.body.id}/impersonation_tokens`, { json: { name: 't', scopes: ['api'] } })).body.token;
      const put = await b.request('PUT', '/application/settings', {
        json: { throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 4, throttle_authenticated_api_period_in_seconds: PERIOD },
      });
      expect(put.status, put.text).to.equal(200);
      const answers: number[] = [];
      for (const server of [a, b, a, b]) answers.push((await server.request('GET', '/user', { token })).status);
      expect(answers).to.deep.equal([200, 200, 200, 200]);
      for (const server of [a, b]) {
        const r = await server.request('GET', '/user', { token });
        await expectThrottled(r);
      }
    } finally {
      await a.stop();
      await b.stop();
      await removeDataDir(dir);
    }
  });
});
