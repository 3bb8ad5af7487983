// Request bodies (src/http/body.ts): JSON, forms and multipart read as Rack reads them for
// GitLab, after authentication and only for a route that exists; a broken Content-Encoding or
// multipart body is the client's 400, a body over WHARF_MAX_BODY_BYTES (fields and files
// included) is 413, and uploaded files never outlive their request.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { createProject } from '../helpers/projects.js';

const MALFORMED = { error: 'message body does not match declared format' };
const TOO_LARGE = { message: '413 Request Entity Too Large' };
const LIMIT = 4000;
const B = 'wharfboundary';

/** A multipart body: [name, value] fields, and [name, filename, content] files. */
function multipart(fields: [string, string][], files: [string, string, string][] = []): Buffer {
  const parts = [
    ...fields.map(([n, v]) => `Content-Disposition: form-data; name="${n}"\r\n\r\n${v}`),
    ...files.map(([n, f, c]) => `Content-Disposition: form-data; name="${n}"; filename="${f}"\r\nContent-Type: text/plain\r\n\r\n${c}`),
  ];
  return Buffer.from(parts.map((p) => `--${B}\r\n${p}\r\n`).join('') + `--${B}--\r\n`);
}

describe('request bodies', () => {
  let s: TestServer;
  let tmp: string;
  let savedTmp: string | undefined;
  let issues: string;

  before(async () => {
    // Uploads go to os.tmpdir(): a folder of this suite's own shows what they leave behind.
    savedTmp = process.env.TMPDIR;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bodies-'));
    process.env.TMPDIR = tmp;
    s = await bootServer({ WHARF_MAX_BODY_BYTES: String(LIMIT) });
    const p = await createProject(s, ROOT_TOKEN, { name: 'bodies', visibility: 'public' });
    issues = `/api/v4/projects/${p.id}/issues`;
  });
  after(async () => {
    await s.close();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** What uploads left in the temp folder (the test server's own folder aside). */
  function leftovers(): string[] {
    return fs.readdirSync(tmp).filter((f) => !f.startsWith('wharf-test-'));
  }

  async function send(method: string, url: string, headers: Record<string, string>, body: Buffer | string, token: string | null = ROOT_TOKEN) {
    const res = await fetch(`${s.url}${url}`, {
      method,
      headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), ...headers },
      body: new Uint8Array(Buffer.from(body)),
    });
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type') === 'application/json' ? JSON.parse(text) : text };
  }

  const json = { 'Content-Type': 'application/json' };
  const form = { 'Content-Type': `multipart/form-data; boundary=${B}` };

  it('answers a body that is not in its Content-Encoding with 400, and reads one that is', async () => {
    const valid = JSON.stringify({ title: 'compressed' });
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const r = await send('POST', issues, { ...json, 'Content-Encoding': encoding }, valid);
      expect([r.status, r.body], encoding).to.deep.equal([400, MALFORMED]);
    }
    const truncated = await send('POST', issues, { ...json, 'Content-Encoding': 'gzip' }, zlib.gzipSync(valid).subarray(0, 15));
    expect([truncated.status, truncated.body]).to.deep.equal([400, MALFORMED]);
    const brokenForm = await send('POST', issues, { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'deflate' }, 'title=x');
    expect([brokenForm.status, brokenForm.body]).to.deep.equal([400, MALFORMED]);
    const unknown = await send('POST', issues, { ...json, 'Content-Encoding': 'zstd' }, valid);
    expect([unknown.status, unknown.body]).to.deep.equal([400, { error: 'Unsupported Content-Encoding: zstd' }]);

    for (const [encoding, bytes] of [
      ['gzip', zlib.gzipSync(valid)],
      ['deflate', zlib.deflateSync(valid)],
      ['br', zlib.brotliCompressSync(valid)],
    ] as const) {
      const r = await send('POST', issues, { ...json, 'Content-Encoding': encoding }, bytes);
      expect(r.status, encoding).to.equal(201);
      expect(r.body.title).to.equal('compressed');
    }
  });

  it('answers a broken multipart body with 400', async () => {
    const bodies: [Record<string, string>, string | Buffer][] = [
      [{ 'Content-Type': 'multipart/form-data' }, 'no boundary'],
      [form, `--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\ncut he`],
      [form, '\u0000\u0001 not multipart at all'],
      [{ ...form, 'Content-Encoding': 'gzip' }, multipart([['title', 'x']])],
      [{ ...form, 'Content-Encoding': 'br' }, multipart([['title', 'x']])],
    ];
    for (const [headers, body] of bodies) {
      const r = await send('POST', issues, headers, body);
      expect([r.status, r.body], JSON.stringify(headers)).to.deep.equal([400, MALFORMED]);
    }
    expect(leftovers()).to.deep.equal([]);
  });

  it('reads multipart fields as form fields (bracketed arrays too), also gzipped', async () => {
    const { user } = await s.createUser('impersonated');
    const body = multipart(
      [
        ['name', 'from a form'],
        ['scopes[]', 'api'],
        ['scopes[]', 'read_user'],
      ],
      [['attachment', 'a.txt', 'hello']],
    );
    const r = await send('POST', `/api/v4/users/${user.id}/impersonation_tokens`, form, body);
    expect(r.status).to.equal(201);
    expect([r.body.name, r.body.scopes]).to.deep.equal(['from a form', ['api', 'read_user']]);
    const gz = await send('POST', issues, { ...form, 'Content-Encoding': 'gzip' }, zlib.gzipSync(multipart([['title', 'zipped form']])));
    expect([gz.status, gz.body.title]).to.deep.equal([201, 'zipped form']);
    expect(leftovers()).to.deep.equal([]);
  });

  it('answers 413 to a multipart file, a field or a whole body over WHARF_MAX_BODY_BYTES', async () => {
    const big = 'x'.repeat(LIMIT + 1);
    const cases: [string, Buffer, Record<string, string>][] = [
      ['file', multipart([['title', 't']], [['attachment', 'big.txt', big]]), form],
      [
        'field',
        multipart([
          ['title', 't'],
          ['description', big],
        ]),
        form,
      ],
      [
        'two files under the limit, over it together',
        multipart(
          [['title', 't']],
          [
            ['a', 'a.txt', big.slice(0, LIMIT / 2)],
            ['b', 'b.txt', big.slice(0, LIMIT / 2)],
          ],
        ),
        form,
      ],
      ['gzipped, small on the wire', zlib.gzipSync(multipart([['title', 't']], [['attachment', 'big.txt', big.repeat(20)]])), { ...form, 'Content-Encoding': 'gzip' }],
    ];
    for (const [label, body, headers] of cases) {
      const r = await send('POST', issues, headers, body);
      expect([r.status, r.body], label).to.deep.equal([413, TOO_LARGE]);
    }
    expect(leftovers()).to.deep.equal([]);
  });

  it('removes uploaded files when the request ends, whether it succeeds or fails', async () => {
    const ok = await send('POST', issues, form, multipart([['title', 'with a file']], [['attachment', 'a.txt', 'hello']]));
    expect(ok.status).to.equal(201);
    const refused = await send('POST', issues, form, multipart([['confidential', 'maybe']], [['attachment', 'a.txt', 'hello']]));
    expect([refused.status, refused.body]).to.deep.equal([400, { error: 'title is missing, confidential is invalid' }]);
    const cut = Buffer.concat([multipart([['title', 't']], [['attachment', 'a.txt', 'hello']]).subarray(0, 200)]);
    const truncated = await send('POST', issues, form, cut);
    expect([truncated.status, truncated.body]).to.deep.equal([400, MALFORMED]);
    expect(leftovers()).to.deep.equal([]);
  });

  it('authenticates before reading the body, and reads none for a stranger or an unknown route', async () => {
    const broken = `--${B}\r\nContent-Disposition: form-data; name="x"; filename="x"\r\n\r\nunfinished`;
    // A bad token is refused before its body is looked at.
    const badToken = await send('POST', issues, json, '{"title": ', 'not-a-token');
    expect([badToken.status, badToken.body]).to.deep.equal([401, { message: '401 Unauthorized' }]);
    // Anonymous multipart is not read at all (so not found broken): the route's own 401.
    const anonymous = await send('POST', issues, form, broken, null);
    expect([anonymous.status, anonymous.body]).to.deep.equal([401, { message: '401 Unauthorized' }]);
    const anonymousFile = await send('POST', '/api/v4/projects', form, multipart([['name', 'x']], [['avatar', 'a.png', 'x'.repeat(2000)]]), null);
    expect(anonymousFile.status).to.equal(401);
    // No route, no body: 404, not a 400 about the body.
    for (const url of ['/api/v4/nothing/here', '/api/v4/projects/1/no_such_thing', '/api/v4/version']) {
      const r = await send('POST', url, form, broken);
      expect([r.status, r.body], url).to.deep.equal([404, { error: '404 Not Found' }]);
      const j = await send('PUT', url, json, '{"broken');
      expect([j.status, j.body], url).to.deep.equal([404, { error: '404 Not Found' }]);
    }
    expect(leftovers()).to.deep.equal([]);
  });

  it('still takes sudo from a JSON body and from a multipart field', async () => {
    const { user } = await s.createUser('sudoed');
    const fromJson = await send('POST', issues, json, JSON.stringify({ title: 'as sudoed', sudo: 'sudoed' }));
    expect(fromJson.status).to.equal(201);
    expect(fromJson.body.author.id).to.equal(user.id);
    const fromForm = await send(
      'POST',
      issues,
      form,
      multipart([
        ['title', 'as sudoed too'],
        ['sudo', String(user.id)],
      ]),
    );
    expect(fromForm.status).to.equal(201);
    expect(fromForm.body.author.id).to.equal(user.id);
    const nobody = await send('POST', issues, json, JSON.stringify({ title: 'x', sudo: 'nobody-here' }));
    expect([nobody.status, nobody.body]).to.deep.equal([404, { message: "404 User with ID or username 'nobody-here' Not Found" }]);
    const stranger = await s.createUser('plainer');
    const notAdmin = await send('POST', issues, json, JSON.stringify({ title: 'x', sudo: 'sudoed' }), stranger.token);
    expect([notAdmin.status, notAdmin.body]).to.deep.equal([403, { message: '403 Forbidden - Must be admin to use sudo' }]);
  });
});
