// A CI variable's value is a secret (GitLab keeps it encrypted and out of its logs): whatever
// way it reaches the API (a JSON or form body, the query string of an update), whichever answer
// the request gets (201, 200, 204, a duplicate's 400, a 404, a 403), the value never appears in
// the server's log output, nor in the project's events. The server is booted as
// helpers/server.ts does, with its logger at its most verbose and written to a buffer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { createTestDatabase } from '../helpers/test_db.js';
import { freePort } from '../helpers/free_port.js';
import { ROOT_TOKEN, TestServer } from '../helpers/server.js';
import { created } from '../helpers/projects.js';

const SECRETS = ['s3cr3t-json-body', 's3cr3t-form-body', 's3cr3t-query-string', 's3cr3t-duplicate', 's3cr3t-forbidden', 's3cr3t-group'];

describe('CI variable values stay out of the logs', function () {
  this.timeout(60_000);
  let s: TestServer;
  let logged = '';

  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-test-'));
    const port = await freePort();
    const database = await createTestDatabase(dir);
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      WHARF_DB: database.target,
      WHARF_REPOS: path.join(dir, 'repos'),
      WHARF_EXTERNAL_URL: `http://127.0.0.1:${port}`,
      WHARF_ROOT_TOKEN: ROOT_TOKEN,
      WHARF_JOB_CONCURRENCY: '0',
      WHARF_SSH_PORT: '0',
      WHARF_SSH_HOST_KEY: path.join(dir, 'db', 'ssh_host_ed25519_key'),
      WHARF_SERVER_SECRET: path.join(dir, 'db', 'server_secret'),
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const running = await startServer(config, pino({ level: 'trace' }, sink));
    s = new TestServer(running, dir, database.drop);
  });
  after(async () => s?.close());

  it('logs every request, and never a value written or read through the variables API', async () => {
    const project = created(await s.post('/projects', { json: { name: 'secretive' } }));
    const group = created(await s.post('/groups', { json: { name: 'Vault', path: 'vault' } }));
    const base = `/projects/${project.id}/variables`;
    expect((await s.post(base, { json: { key: 'JSON_KEY', value: SECRETS[0] } })).status).to.equal(201);
    expect((await s.post(base, { form: { key: 'FORM_KEY', value: SECRETS[1], protected: 'true' } })).status).to.equal(201);
    expect((await s.put(`${base}/JSON_KEY`, { query: { value: SECRETS[2] } })).body).to.deep.equal({ key: 'JSON_KEY', value: SECRETS[2], protected: false });
    const duplicate = await s.post(base, { json: { key: 'FORM_KEY', value: SECRETS[3] } });
    expect(duplicate.status).to.equal(400);
    expect(duplicate.body).to.deep.equal({ message: { key: ['(FORM_KEY) has already been taken'] } });
    const stranger = await s.createUser('stranger');
    expect((await s.post(base, { token: stranger.token, json: { key: 'NOPE', value: SECRETS[4] } })).status).to.equal(404);
    expect((await s.put(`${base}/MISSING`, { json: { value: SECRETS[4] } })).status).to.equal(404);
    expect((await s.post(`/groups/${group.id}/variables`, { json: { key: 'GROUP_KEY', value: SECRETS[5] } })).status).to.equal(201);
    expect((await s.get(base)).body.map((v: any) => v.value)).to.deep.equal([SECRETS[2], SECRETS[1]]);
    expect((await s.get(`/groups/${group.id}/variables/GROUP_KEY`)).body.value).to.equal(SECRETS[5]);
    expect((await s.delete(`${base}/FORM_KEY`)).status).to.equal(204);

    await new Promise((r) => setImmediate(r));
    expect(logged, 'the access log is on and captured').to.include(`"path":"/api/v4${base}/JSON_KEY"`);
    for (const secret of SECRETS) expect(logged, secret).not.to.include(secret);
    const events = await s.get(`/projects/${project.id}/events`);
    expect(events.status).to.equal(200);
    for (const secret of SECRETS) expect(events.text, secret).not.to.include(secret);
  });
});
