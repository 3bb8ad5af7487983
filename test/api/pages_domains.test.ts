// Custom Pages domains (GitLab 10.8 lib/api/pages_domains.rb) with certificates made by the
// real `openssl` command: self-signed, chained through an intermediate to a root, expired,
// and a key of another certificate. Every operation and error with status and body; the key
// stored encrypted (never returned); Pages off (no WHARF_PAGES_HOST) answers 404.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { created } from '../helpers/projects.js';
import { addProjectMembers, createRoles, type Roles } from '../helpers/roles.js';
import { DEVELOPER, MASTER } from '../../src/policy/levels.js';
import { secretFile } from '../../src/services/security/secret_box.js';

interface Pem {
  cert: string;
  key: string;
}

/** Certificates made with openssl in a temporary folder. */
class Certs {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-certs-'));
  private n = 0;

  private run(args: string[]): void {
    execFileSync('openssl', args, { cwd: this.dir, stdio: 'pipe' });
  }

  private read(name: string): string {
    return fs.readFileSync(path.join(this.dir, name), 'utf8');
  }

  /** A self-signed RSA certificate (CA when asked); an expired one is issued by `openssl ca` with past dates. */
  selfSigned(cn: string, opts: { expired?: boolean; ca?: boolean } = {}): Pem & { name: string } {
    const name = `c${this.n++}`;
    const subj = `/CN=${cn}/O=Wharf Test`;
    if (!opts.expired) {
      const ext = opts.ca ? ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'] : [];
      this.run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-subj', subj, '-days', '30', ...ext]);
    } else {
      const conf = [
        '[ca]',
        'default_ca = here',
        '[here]',
        'database = index.txt',
        'new_certs_dir = .',
        'serial = serial',
        'default_md = sha256',
        'policy = any',
        'unique_subject = no',
        '[any]',
        'commonName = supplied',
        'organizationName = optional',
        '',
      ].join('\n');
      fs.writeFileSync(path.join(this.dir, 'ca.cnf'), conf);
      fs.writeFileSync(path.join(this.dir, 'index.txt'), '');
      fs.writeFileSync(path.join(this.dir, 'serial'), '1000\n');
      this.run(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subj]);
      this.run([
        'ca',
        '-batch',
        '-config',
        'ca.cnf',
        '-selfsign',
        '-keyfile',
        `${name}.key`,
        '-in',
        `${name}.csr`,
        '-out',
        `${name}.crt`,
        '-notext',
        '-startdate',
        '20200101000000Z',
        '-enddate',
        '20200201000000Z',
      ]);
    }
    return { name, cert: this.read(`${name}.crt`), key: this.read(`${name}.key`) };
  }

  /** A certificate for `cn` signed by `issuer` (a CA made here). */
  signedBy(cn: string, issuer: { name: string }, opts: { ca?: boolean } = {}): Pem & { name: string } {
    const name = `c${this.n++}`;
    this.run(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`]);
    fs.writeFileSync(path.join(this.dir, `${name}.ext`), opts.ca ? 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n' : 'basicConstraints=CA:FALSE\n');
    this.run([
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${issuer.name}.crt`,
      '-CAkey',
      `${issuer.name}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '30',
      '-extfile',
      `${name}.ext`,
    ]);
    return { name, cert: this.read(`${name}.crt`), key: this.read(`${name}.key`) };
  }
}

const FORBIDDEN = { message: '403 Forbidden' };

describe('Pages domains API', function () {
  this.timeout(120_000);
  let s: TestServer;
  let roles: Roles;
  let project: { id: number };
  const certs = new Certs();
  let self: Pem;
  let expired: Pem;
  let leaf: Pem;
  let root: Pem;
  let intermediate: Pem;
  const url = (suffix = '') => `/projects/${project.id}/pages/domains${suffix}`;

  before(async () => {
    s = await bootServer({ WHARF_PAGES_HOST: 'Pages.Example.io' });
    roles = await createRoles(s);
    project = created(await s.post('/projects', { token: roles.owner.token, json: { name: 'site', visibility: 'public' } }));
    await addProjectMembers(s, project.id, [
      [roles.master, MASTER],
      [roles.dev, DEVELOPER],
    ]);
    self = certs.selfSigned('self.example.com');
    expired = certs.selfSigned('old.example.com', { expired: true });
    const rootCa = certs.selfSigned('Wharf Test Root', { ca: true });
    const mid = certs.signedBy('Wharf Test Intermediate', rootCa, { ca: true });
    leaf = certs.signedBy('chained.example.com', mid);
    root = rootCa;
    intermediate = mid;
  });
  after(async () => {
    await s.close();
    fs.rmSync(certs.dir, { recursive: true, force: true });
  });

  const count = async () => Number((await s.db('pages_domains').count({ n: '*' }).first())?.n);

  it('adds a domain without a certificate (201, http, unverified, a verification code)', async () => {
    const r = await s.post(url(), { token: roles.master.token, json: { domain: 'www.example.com' } });
    expect(r.status, r.text).to.equal(201);
    expect(Object.keys(r.body)).to.deep.equal(['domain', 'url', 'verified', 'verification_code', 'enabled_until']);
    expect(r.body).to.include({ domain: 'www.example.com', url: 'http://www.example.com', verified: false, enabled_until: null });
    expect(r.body.verification_code).to.match(/^[0-9a-f]{32}$/);
    expectSchema(r.body, 'public_api/v4/pages_domain/detail.json');
  });

  it('adds a self-signed certificate with its key: https, subject, text; the key sealed at rest, never shown', async () => {
    const r = await s.post(url(), { token: roles.master.token, json: { domain: 'self.example.com', certificate: self.cert, key: self.key } });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.url).to.equal('https://self.example.com');
    expect(r.body.certificate).to.include({ subject: '/CN=self.example.com/O=Wharf Test', expired: false, certificate: self.cert });
    expect(r.body.certificate.certificate_text).to.include('Subject: CN = self.example.com, O = Wharf Test');
    expect(JSON.stringify(r.body)).not.to.include('PRIVATE KEY');
    expectSchema(r.body, 'public_api/v4/pages_domain/detail.json');
    const row = await s.db('pages_domains').where({ domain: 'self.example.com' }).first();
    expect(row.encrypted_key).to.match(/^v1:/);
    expect(row.encrypted_key).not.to.include('PRIVATE KEY');
    const secret = secretFile(s.deps.config);
    expect(fs.statSync(secret).mode & 0o777).to.equal(0o600);
  });

  it('takes the certificate and key as files of a multipart body too (curl -F certificate=@cert.pem)', async () => {
    const form = new FormData();
    form.append('domain', 'files.example.com');
    form.append('certificate', new Blob([self.cert]), 'cert.pem');
    form.append('key', new Blob([self.key]), 'key.pem');
    const res = await fetch(`${s.url}/api/v4${url()}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': roles.master.token }, body: form });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).to.equal(201);
    expect(body.url).to.equal('https://files.example.com');
    expect(body.certificate).to.include({ subject: '/CN=self.example.com/O=Wharf Test', certificate: self.cert });
    expect((await s.delete(url('/files.example.com'), { token: roles.master.token })).status).to.equal(204);
  });

  it('accepts an expired certificate and shows it expired', async () => {
    const r = await s.post(url(), { token: roles.master.token, json: { domain: 'old.example.com', certificate: expired.cert, key: expired.key } });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.certificate.expired).to.equal(true);
  });

  it('accepts a chain that reaches its root; a leaf without intermediates misses them', async () => {
    const before = await count();
    const alone = await s.post(url(), { token: roles.master.token, json: { domain: 'chained.example.com', certificate: leaf.cert, key: leaf.key } });
    expect(alone.status).to.equal(400);
    expect(alone.body).to.deep.equal({ message: { certificate: ['misses intermediates'] } });
    const noRoot = await s.post(url(), { token: roles.master.token, json: { domain: 'chained.example.com', certificate: leaf.cert + intermediate.cert, key: leaf.key } });
    expect(noRoot.status).to.equal(400);
    expect(noRoot.body).to.deep.equal({ message: { certificate: ['misses intermediates'] } });
    expect(await count()).to.equal(before);
    const chain = leaf.cert + intermediate.cert + root.cert;
    const r = await s.post(url(), { token: roles.master.token, json: { domain: 'chained.example.com', certificate: chain, key: leaf.key } });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.certificate.subject).to.equal('/CN=chained.example.com');
  });

  it('refuses malformed PEM, a key of another certificate, and certificate without key (400, nothing stored)', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, unknown][] = [
      [
        { certificate: 'not a certificate', key: self.key },
        { certificate: ['must be a valid PEM certificate', 'misses intermediates'], key: ["doesn't match the certificate"] },
      ],
      [{ certificate: self.cert, key: 'not a key' }, { key: ['must be a valid PEM private key', "doesn't match the certificate"] }],
      [{ certificate: self.cert, key: expired.key }, { key: ["doesn't match the certificate"] }],
    ];
    for (const [json, message] of cases) {
      const r = await s.post(url(), { token: roles.master.token, json: { domain: 'bad.example.com', ...json } });
      expect(r.status, JSON.stringify(json)).to.equal(400);
      expect(r.body).to.deep.equal({ message });
    }
    const half = await s.post(url(), { token: roles.master.token, json: { domain: 'bad.example.com', certificate: self.cert } });
    expect(half.status).to.equal(400);
    expect(half.body).to.deep.equal({ error: 'certificate, key provide all or none of parameters' });
    const blank = await s.post(url(), { token: roles.master.token, json: { domain: 'bad.example.com', certificate: '', key: '' } });
    expect(blank.status).to.equal(400);
    expect(blank.body).to.deep.equal({ error: 'certificate is empty, key is empty' });
    expect(await count()).to.equal(before);
  });

  it('refuses bad names: a path, a port, a taken one in any case, one under the Pages host', async () => {
    const before = await count();
    const invalid = 'contains invalid characters (valid characters: [a-z0-9\\-])';
    const cases: [string, unknown][] = [
      ['example.com/path', { domain: [invalid] }],
      ['example.com:8080', { domain: [invalid] }],
      ['-bad.example.com', { domain: ['begins or ends with hyphen'] }],
      ['a..b', { domain: ['must be between 1 and 63 characters long', 'must not contain consecutive dots'] }],
      ['WWW.Example.COM', { domain: ['has already been taken'] }],
      ['mine.pages.example.io', { domain: ['*.pages.example.io is restricted'] }],
    ];
    for (const [domain, message] of cases) {
      const r = await s.post(url(), { token: roles.master.token, json: { domain } });
      expect(r.status, domain).to.equal(400);
      expect(r.body, domain).to.deep.equal({ message });
    }
    const missing = await s.post(url(), { token: roles.master.token, json: {} });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ error: 'domain is missing' });
    expect(await count()).to.equal(before);
  });

  it('lists by name and gets one (case-insensitive); 404 PagesDomain Not Found', async () => {
    const r = await s.get(url(), { token: roles.master.token });
    expect(r.status).to.equal(200);
    expect(r.body.map((d: { domain: string }) => d.domain)).to.deep.equal(['chained.example.com', 'old.example.com', 'self.example.com', 'www.example.com']);
    expectSchema(r.body, 'public_api/v4/pages_domains.json');
    const one = await s.get(url('/SELF.example.com'), { token: roles.master.token });
    expect(one.status).to.equal(200);
    expect(one.body.domain).to.equal('self.example.com');
    const missing = await s.get(url('/nope.example.com'), { token: roles.master.token });
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: '404 PagesDomain Not Found' });
  });

  it('updates: a new certificate keeps the stored key; none removes both; a mismatch changes nothing', async () => {
    const again = certs.selfSigned('www.example.com');
    const withBoth = await s.put(url('/www.example.com'), { token: roles.master.token, json: { certificate: again.cert, key: again.key } });
    expect(withBoth.status, withBoth.text).to.equal(200);
    expect(withBoth.body.url).to.equal('https://www.example.com');
    const sameCert = await s.put(url('/www.example.com'), { token: roles.master.token, json: { certificate: again.cert } });
    expect(sameCert.status, sameCert.text).to.equal(200);
    expect(sameCert.body.certificate.subject).to.equal('/CN=www.example.com/O=Wharf Test');
    const mismatch = await s.put(url('/www.example.com'), { token: roles.master.token, json: { certificate: self.cert } });
    expect(mismatch.status).to.equal(400);
    expect(mismatch.body).to.deep.equal({ message: { key: ["doesn't match the certificate"] } });
    expect((await s.db('pages_domains').where({ domain: 'www.example.com' }).first()).certificate).to.equal(again.cert);
    const cleared = await s.put(url('/www.example.com'), { token: roles.master.token, json: {} });
    expect(cleared.status).to.equal(200);
    expect(cleared.body).to.not.have.property('certificate');
    expect(cleared.body.url).to.equal('http://www.example.com');
    const row = await s.db('pages_domains').where({ domain: 'www.example.com' }).first();
    expect(row).to.include({ certificate: null, encrypted_key: null });
    const missing = await s.put(url('/nope.example.com'), { token: roles.master.token, json: {} });
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: '404 PagesDomain Not Found' });
  });

  it('masters only (developers 403, anonymous 401); a private project is 404 to strangers', async () => {
    for (const [method, path] of [
      ['GET', url()],
      ['GET', url('/www.example.com')],
      ['POST', url()],
      ['PUT', url('/www.example.com')],
      ['DELETE', url('/www.example.com')],
    ] as const) {
      const r = await s.request(method, path, { token: roles.dev.token, ...(method === 'GET' ? {} : { json: { domain: 'dev.example.com' } }) });
      expect(r.status, `${method} ${path}`).to.equal(403);
      expect(r.body).to.deep.equal(FORBIDDEN);
    }
    const anonymous = await s.get(url(), { token: null });
    expect(anonymous.status).to.equal(401);
    const secret = created(await s.post('/projects', { token: roles.owner.token, json: { name: 'secret-site', visibility: 'private' } }));
    const hidden = await s.get(`/projects/${secret.id}/pages/domains`, { token: roles.stranger.token });
    expect(hidden.status).to.equal(404);
    expect(hidden.body).to.deep.equal({ message: '404 Project Not Found' });
  });

  it('is 404 Not Found for a project in a subgroup (Pages serves none)', async () => {
    const top = created(await s.post('/groups', { token: roles.owner.token, json: { name: 'top', path: 'top', visibility: 'public' } }));
    const sub = created(await s.post('/groups', { token: roles.owner.token, json: { name: 'sub', path: 'sub', parent_id: top.id, visibility: 'public' } }));
    const nested = created(await s.post('/projects', { token: roles.owner.token, json: { name: 'nested', namespace_id: sub.id, visibility: 'public' } }));
    const r = await s.post(`/projects/${nested.id}/pages/domains`, { token: roles.owner.token, json: { domain: 'nested.example.com' } });
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ message: '404 Not Found' });
  });

  it('GET /pages/domains lists every domain to admins (PagesDomainBasic), 403 to others', async () => {
    const r = await s.get('/pages/domains', { token: roles.admin.token });
    expect(r.status).to.equal(200);
    expect(r.body.length).to.equal(await count());
    const old = r.body.find((d: { domain: string }) => d.domain === 'old.example.com');
    expect(old).to.deep.include({ project_id: project.id, certificate_expiration: { expired: true, expiration: '2020-02-01T00:00:00.000Z' } });
    for (const d of r.body) expectSchema(d, 'public_api/v4/pages_domain/basic.json');
    const master = await s.get('/pages/domains', { token: roles.master.token });
    expect(master.status).to.equal(403);
    expect(master.body).to.deep.equal(FORBIDDEN);
  });

  it('deletes (204); gone after', async () => {
    const r = await s.delete(url('/old.example.com'), { token: roles.master.token });
    expect(r.status).to.equal(204);
    const again = await s.delete(url('/old.example.com'), { token: roles.master.token });
    expect(again.status).to.equal(404);
    expect(again.body).to.deep.equal({ message: '404 PagesDomain Not Found' });
  });
});

describe('Pages domains API with Pages off', function () {
  this.timeout(60_000);
  let s: TestServer;
  before(async () => {
    s = await bootServer();
  });
  after(async () => s.close());

  it('answers 404 Not Found on every route', async () => {
    const project = created(await s.post('/projects', { json: { name: 'no-pages' } }));
    for (const [method, path] of [
      ['GET', '/pages/domains'],
      ['GET', `/projects/${project.id}/pages/domains`],
      ['POST', `/projects/${project.id}/pages/domains`],
      ['GET', `/projects/${project.id}/pages/domains/x.example.com`],
    ] as const) {
      const r = await s.request(method, path, method === 'GET' ? {} : { json: { domain: 'x.example.com' } });
      expect(r.status, `${method} ${path}`).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Not Found' });
    }
  });
});
