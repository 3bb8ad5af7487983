// The circuit breaker API (GitLab 10.8 lib/api/circuit_breakers.rb and its request spec),
// admins only: Wharf's one storage, 'default', healthy while the repositories folder is a
// folder the server can use, failing on this host while it is not, and the reset (204).
import fs from 'node:fs';
import os from 'node:os';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { openApiSchemas, type SchemaCheck } from '../helpers/openapi_schemas.js';

const ALL = '/circuit_breakers/repository_storage';
const FAILING = '/circuit_breakers/repository_storage/failing';

describe('circuit breakers', function () {
  this.timeout(60_000);
  let s: TestServer;
  let schema: SchemaCheck;

  before(async () => {
    s = await bootServer();
    schema = await openApiSchemas(s);
  });
  after(async () => s?.close());

  it('answers 401 to the signed-out and 403 to non-admins', async () => {
    const { token } = await s.createUser('breaker-user');
    for (const [method, path] of [
      ['GET', ALL],
      ['GET', FAILING],
      ['DELETE', ALL],
    ]) {
      const anonymous = await s.request(method, path, { token: null });
      expect(anonymous.status, `${method} ${path}`).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const denied = await s.request(method, path, { token });
      expect(denied.status, `${method} ${path}`).to.equal(403);
      expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
    }
  });

  it('shows the default storage healthy, and no failing storage', async () => {
    const all = await s.get(ALL);
    expect(all.status).to.equal(200);
    schema(all.body, 'RepositoryStorageHealth', true);
    expect(all.body).to.deep.equal([{ storage_name: 'default', failing_on_hosts: [], total_failures: 0 }]);
    const failing = await s.get(FAILING);
    expect(failing.status).to.equal(200);
    expect(failing.body).to.deep.equal([]);
  });

  it('shows the storage failing on this host while the repositories folder is not a folder', async () => {
    const root = s.deps.repos.root;
    const aside = `${root}.aside`;
    fs.renameSync(root, aside);
    fs.writeFileSync(root, 'not a folder');
    try {
      const expected = [{ storage_name: 'default', failing_on_hosts: [os.hostname()], total_failures: 1 }];
      const all = await s.get(ALL);
      schema(all.body, 'RepositoryStorageHealth', true);
      expect(all.body).to.deep.equal(expected);
      expect((await s.get(FAILING)).body).to.deep.equal(expected);
      const reset = await s.delete(ALL);
      expect(reset.status).to.equal(204);
    } finally {
      fs.rmSync(root);
      fs.renameSync(aside, root);
    }
    expect((await s.get(FAILING)).body).to.deep.equal([]);
  });

  it('resets the failures with 204 and no body', async () => {
    const r = await s.delete(ALL);
    expect(r.status).to.equal(204);
    expect(r.text).to.equal('');
  });

  it('has no other kind of circuit breaker', async () => {
    const r = await s.get('/circuit_breakers/other_storage');
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ error: '404 Not Found' });
  });
});
