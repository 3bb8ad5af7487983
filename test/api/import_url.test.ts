// import_url on POST /projects: a repository cloned with the real git from a local Wharf
// (credentials in the URL, never shown back) once allow_local_requests_from_hooks_and_services
// is on, also behind an HTTP redirect that Wharf follows itself; refused with it off (the
// resolved address is loopback); the answer is import_status scheduled, then finished or failed.
import dns from 'node:dns';
import dnsPromises from 'node:dns/promises';
import http from 'node:http';
import { execFileSync, spawn } from 'node:child_process';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { gitOk, repoUrl, workRepo, commit, tempDir } from '../transport/git_client.js';
import { freePort } from '../helpers/free_port.js';
import { isLocalAddress } from '../../src/services/security/import_url_guard.js';
import { hostInterfaceAddress, urlHost } from '../helpers/host_address.js';

const refsOf = (gitdir: string) => execFileSync('git', ['--git-dir', gitdir, 'for-each-ref', '--format=%(objectname) %(refname)']).toString().trim();

describe('import_url', function () {
  this.timeout(120_000);
  let s: TestServer;
  let owner: { token: string };
  let sourcePath: string;

  before(async () => {
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '0' });
    owner = await s.createUser('iu-owner');
    const src = await s.post('/projects', { token: owner.token, json: { name: 'upstream', visibility: 'private' } });
    sourcePath = src.body.path_with_namespace;
    const dir = await workRepo([{ 'README.md': '# up\n' }]);
    await commit(dir, { 'b.txt': 'b\n' }, 'second');
    await gitOk(['push', '-q', repoUrl(s, sourcePath, owner.token), 'master'], { cwd: dir });
    await gitOk(['tag', 'v1'], { cwd: dir });
    await gitOk(['push', '-q', repoUrl(s, sourcePath, owner.token), 'v1'], { cwd: dir });
  });
  after(async () => s.close());

  async function create(name: string, url: string) {
    const r = await s.post('/projects', { token: owner.token, json: { name, import_url: url } });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.import_status).to.equal('scheduled');
    expect(r.text).not.to.include(owner.token);
    await s.drainJobs();
    const after = await s.get(`/projects/${r.body.id}`, { token: owner.token });
    expect(after.text).not.to.include(owner.token);
    const st = await s.get(`/projects/${r.body.id}/import`, { token: owner.token });
    expect(st.text).not.to.include(owner.token);
    return { id: r.body.id as number, project: after.body, status: st.body };
  }

  it('clones from a local Wharf with credentials once local requests are allowed', async () => {
    expect((await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } })).status).to.equal(200);
    try {
      const r = await create('cloned', repoUrl(s, sourcePath, owner.token));
      expect(r.status.import_status, JSON.stringify(r.status)).to.equal('finished');
      expect(r.project.default_branch).to.equal('master');
      expect(refsOf(s.deps.repos.pathFor('iu-owner/cloned'))).to.equal(refsOf(s.deps.repos.pathFor(sourcePath)));
      const commits = await s.get(`/projects/${r.id}/repository/commits`, { token: owner.token });
      expect(commits.body.map((c: any) => c.title)).to.deep.equal(['second', 'commit 1']);
    } finally {
      await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: false } });
    }
  });

  it('refuses the loopback address with the setting off, directly or behind a redirect, keeping the empty repository; follows the redirect itself with it on', async () => {
    const direct = await create('refused', repoUrl(s, sourcePath, owner.token));
    expect(direct.status).to.deep.include({ import_status: 'failed', import_error: 'Import url is blocked: Requests to the local network are not allowed' });
    expect(refsOf(s.deps.repos.pathFor('iu-owner/refused'))).to.equal('');
    // A redirect from a server the check would accept to the local Wharf: each hop is checked.
    const redirector = http.createServer((req, res) => {
      res.writeHead(302, { Location: `${repoUrl(s, sourcePath, owner.token)}${req.url?.replace(/^\/repo\.git/, '')}` });
      res.end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const port = (redirector.address() as { port: number }).port;
      const viaRedirect = await create('redirected', `http://127.0.0.1:${port}/repo.git`);
      expect(viaRedirect.status.import_status).to.equal('failed');
      expect(viaRedirect.status.import_error).to.equal('Import url is blocked: Requests to the local network are not allowed');
      expect((await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } })).status).to.equal(200);
      // Credentials go to another host only when the redirect itself names them.
      const followed = await create('followed', `http://127.0.0.1:${port}/repo.git`);
      expect(followed.status.import_status, JSON.stringify(followed.status)).to.equal('finished');
      expect(refsOf(s.deps.repos.pathFor('iu-owner/followed'))).to.equal(refsOf(s.deps.repos.pathFor(sourcePath)));
    } finally {
      await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: false } });
      redirector.close();
    }
  });

  it('reports a clone that fails without repeating the credentials', async () => {
    expect((await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } })).status).to.equal(200);
    try {
      const r = await create('missing', `${s.url.replace('http://', `http://anyone:${owner.token}@`)}/iu-owner/no-such.git`);
      expect(r.status.import_status).to.equal('failed');
      expect(r.status.import_error).to.match(/^Error importing repository: fatal: /);
      expect(refsOf(s.deps.repos.pathFor('iu-owner/missing'))).to.equal('');
    } finally {
      await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: false } });
    }
  });

  it('clones over git:// from a git daemon, connecting to the address it checked; refused with the setting off', async () => {
    const base = tempDir('wharf-daemon-');
    execFileSync('git', ['clone', '-q', '--bare', s.deps.repos.pathFor(sourcePath), `${base}/up.git`]);
    const port = await freePort();
    const daemon = spawn('git', ['daemon', '--reuseaddr', '--export-all', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, base], { stdio: 'ignore' });
    try {
      for (let i = 0; i < 100; i++) {
        try {
          execFileSync('git', ['ls-remote', `git://127.0.0.1:${port}/up.git`], { stdio: 'pipe' });
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      // "localhost" is resolved and checked once; git is then given 127.0.0.1 itself.
      const refused = await create('daemon-refused', `git://localhost:${port}/up.git`);
      expect(refused.status).to.deep.include({ import_status: 'failed', import_error: 'Import url is blocked: Requests to the local network are not allowed' });
      expect((await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } })).status).to.equal(200);
      const cloned = await create('daemon-cloned', `git://localhost:${port}/up.git`);
      expect(cloned.status.import_status, JSON.stringify(cloned.status)).to.equal('finished');
      // What is kept is the URL as given, not the address git was pointed at.
      expect((await s.db('projects').where({ id: cloned.id }).first()).import_url).to.equal(`git://localhost:${port}/up.git`);
      expect(refsOf(s.deps.repos.pathFor('iu-owner/daemon-cloned'))).to.equal(refsOf(s.deps.repos.pathFor(sourcePath)));
    } finally {
      daemon.kill();
      await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: false } });
    }
  });

  it("refuses an address of this host's own interfaces (not loopback) with the setting off, without a request to it", async function () {
    const address = hostInterfaceAddress();
    if (address === null) return this.skip(); // no interface but loopback
    const requests: string[] = [];
    const listener = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => listener.listen(0, address, r));
    try {
      const port = (listener.address() as { port: number }).port;
      const refused = await create('own-address', `http://${urlHost(address)}:${port}/repo.git`);
      expect(refused.status).to.deep.include({ import_status: 'failed', import_error: 'Import url is blocked: Requests to the local network are not allowed' });
      expect(requests).to.deep.equal([]);
      expect(isLocalAddress(address), address).to.equal(true);
    } finally {
      listener.close();
    }
  });

  it('probes the address it checked, not where the name resolves the next time (DNS rebinding)', async () => {
    // "rebind.test" resolves to 127.0.0.1 (Wharf) when checked, to 127.0.0.2 afterwards: a
    // listener there, on the same port, must see no request.
    const port = Number(new URL(s.url).port);
    const elsewhere: string[] = [];
    const other = http.createServer((req, res) => {
      elsewhere.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => other.listen(port, '127.0.0.2', r));
    const lookup = dns.lookup;
    const lookupPromise = dnsPromises.lookup;
    const swap = (host: string, to: string) => (host === 'rebind.test' ? to : host);
    (dns as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) => (lookup as (...a: unknown[]) => unknown)(swap(host, '127.0.0.2'), ...rest);
    (dnsPromises as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) => (lookupPromise as (...a: unknown[]) => unknown)(swap(host, '127.0.0.1'), ...rest);
    expect((await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } })).status).to.equal(200);
    try {
      const url = repoUrl(s, sourcePath, owner.token).replace('127.0.0.1', 'rebind.test');
      const r = await create('rebound', url);
      expect(r.status.import_status, JSON.stringify(r.status)).to.equal('finished');
      expect(elsewhere).to.deep.equal([]);
    } finally {
      (dns as { lookup: unknown }).lookup = lookup;
      (dnsPromises as { lookup: unknown }).lookup = lookupPromise;
      await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: false } });
      other.close();
    }
  });

  it("classifies addresses as GitLab's blocker does", () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1'])
      expect(isLocalAddress(a), a).to.equal(true);
    for (const a of ['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '1.1.1.1']) expect(isLocalAddress(a), a).to.equal(false);
  });
});
