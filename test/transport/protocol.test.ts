// Malformed, truncated and odd git requests: a clean 4xx (or git's own ERR packet), never a
// 500, never a moved ref.
import http from 'node:http';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { git as bareGit } from '../helpers/bare_git.js';
import { pkt } from '../../src/transport/pktline.js';
import { gitOk, repoUrl, workRepo } from './git_client.js';

const ZERO = '0'.repeat(40);

describe('git smart HTTP: malformed requests', function () {
  this.timeout(60_000);
  let s: TestServer;
  let token: string;
  let fullPath: string;
  let gitdir: string;
  let head: string;

  before(async () => {
    s = await bootServer();
    ({ token } = await s.createUser('mallory'));
    const r = await s.post('/projects', { json: { name: 'target', visibility: 'private' }, token });
    fullPath = r.body.path_with_namespace;
    gitdir = s.deps.repos.pathFor(fullPath);
    const work = await workRepo();
    await gitOk(['push', '-q', repoUrl(s, fullPath, token), 'master'], { cwd: work });
    head = bareGit(gitdir, ['rev-parse', 'refs/heads/master']).trim();
  });
  after(async () => s.close());

  async function post(service: string, body: Buffer | string, headers: Record<string, string> = {}) {
    const res = await fetch(`${s.url}/${fullPath}.git/${service}`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
        'Content-Type': `application/x-${service}-request`,
        ...headers,
      },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  }

  function expect400(r: { status: number; type: string | null; body: Buffer }, text: string) {
    expect(r.status).to.equal(400);
    expect(r.type).to.equal('text/plain; charset=utf-8');
    expect(r.body.toString()).to.equal(`${text}\n`);
  }

  const refs = () => bareGit(gitdir, ['for-each-ref']);

  it('wants the content type git sends, and no encoding but gzip', async () => {
    const wrong = await post('git-upload-pack', '0000', { 'Content-Type': 'text/plain' });
    expect(wrong.status).to.equal(415);
    expect(wrong.body.toString()).to.equal('Unsupported Media Type: expected application/x-git-upload-pack-request\n');
    const br = await post('git-upload-pack', '0000', { 'Content-Encoding': 'br' });
    expect(br.status).to.equal(415);
    expect(br.body.toString()).to.equal('Unsupported Content-Encoding: br\n');
  });

  it('asks the anonymous for credentials on a POST too', async () => {
    const res = await fetch(`${s.url}/${fullPath}.git/git-upload-pack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request' },
      body: '0000',
    });
    expect(res.status).to.equal(401);
    expect(await res.text()).to.equal('HTTP Basic: Access denied\n');
  });

  it('answers 400 to garbage, empty and truncated fetch requests', async () => {
    expect400(await post('git-upload-pack', 'hello world'), 'Malformed git request: bad pkt-line length header');
    expect400(await post('git-upload-pack', ''), 'Malformed git request: the request body ended early');
    expect400(await post('git-upload-pack', '0003'), 'Malformed git request: bad pkt-line length 3');
    expect400(await post('git-upload-pack', pkt(`want ${head}\n`).toString() + 'zz'), 'Malformed git request: truncated pkt-line');
    expect400(await post('git-upload-pack', pkt(`want ${head}\n`).toString() + 'wxyz'), 'Malformed git request: bad pkt-line length header');
    expect400(await post('git-upload-pack', Buffer.from('not gzip at all'), { 'Content-Encoding': 'gzip' }), 'Malformed git request: incorrect header check');
    const cut = zlib.gzipSync(Buffer.from(`${pkt(`want ${head}\n`)}00000009done\n`)).subarray(0, 20);
    const r = await post('git-upload-pack', cut, { 'Content-Encoding': 'gzip' });
    expect(r.status).to.equal(400);
    expect(r.body.toString()).to.match(/^Malformed git request: /);
  });

  it("relays git's own refusal of a well-framed but wrong fetch as an ERR packet", async () => {
    const unknown = await post('git-upload-pack', `${pkt(`want ${'1'.repeat(40)}\n`)}00000009done\n`);
    expect(unknown.status).to.equal(200);
    expect(unknown.type).to.equal('application/x-git-upload-pack-result');
    expect(unknown.body.toString()).to.match(/^[0-9a-f]{4}ERR upload-pack: not our ref 1{40}/);

    const nonsense = await post('git-upload-pack', `${pkt('hello there\n')}0000`);
    expect(nonsense.status).to.equal(200);
    expect(nonsense.body.toString()).to.match(/^[0-9a-f]{4}ERR /);
    expect(nonsense.body.toString()).to.not.contain(s.deps.repos.root);
  });

  it('answers 400 to malformed push command lists and moves nothing', async () => {
    const before = refs();
    expect400(await post('git-receive-pack', 'garbage!'), 'Malformed git request: bad pkt-line length header');
    expect400(await post('git-receive-pack', ''), 'Malformed git request: the request body ended early');
    const cmd = pkt(`${ZERO} ${head} refs/heads/new\0report-status\n`);
    expect400(await post('git-receive-pack', cmd), 'Malformed git request: the request body ended early');
    expect400(await post('git-receive-pack', cmd.subarray(0, 30)), 'Malformed git request: the request body ended early');
    expect400(await post('git-receive-pack', `${pkt('hello world\n')}0000`), 'Malformed git request: malformed ref update command');
    expect400(await post('git-receive-pack', `${pkt(`${ZERO} ${head}\n`)}0000`), 'Malformed git request: malformed ref update command');
    expect400(await post('git-receive-pack', `${pkt('push-cert\0report-status\n')}0000`), 'Malformed git request: push certificates are not supported');
    expect400(await post('git-receive-pack', `${cmd}0001`), 'Malformed git request: unexpected delimiter in command list');
    expect(refs()).to.equal(before);
  });

  it('answers an empty probe with an empty 200, as git expects before a large push', async () => {
    const r = await post('git-receive-pack', '0000');
    expect(r.status).to.equal(200);
    expect(r.type).to.equal('application/x-git-receive-pack-result');
    expect(r.body.length).to.equal(0);
  });

  it('reports a broken pack through git, leaving the refs alone', async () => {
    const before = refs();
    const body = Buffer.concat([pkt(`${ZERO} ${'2'.repeat(40)} refs/heads/broken\0report-status\n`), Buffer.from('0000PACK\0\0\0\x02garbage')]);
    const r = await post('git-receive-pack', body);
    expect(r.status).to.equal(200);
    const text = r.body.toString();
    expect(text).to.match(/unpack (?!ok)/);
    expect(text).to.contain('ng refs/heads/broken');
    expect(refs()).to.equal(before);
  });

  it('lets a push of only a deletion through without a pack', async () => {
    await gitOk(['--git-dir', gitdir, 'update-ref', 'refs/heads/gone', head]);
    const r = await post('git-receive-pack', `${pkt(`${head} ${ZERO} refs/heads/gone\0report-status\n`)}0000`);
    expect(r.status).to.equal(200);
    expect(r.body.toString()).to.contain('ok refs/heads/gone');
    expect(refs()).to.not.contain('refs/heads/gone');
  });

  it('survives a client that goes away in the middle of a push', async () => {
    const before = refs();
    for (const cut of ['head', 'pack']) {
      await new Promise<void>((resolve) => {
        const req = http.request(`${s.url}/${fullPath}.git/git-receive-pack`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
            'Content-Type': 'application/x-git-receive-pack-request',
            'Transfer-Encoding': 'chunked',
          },
        });
        req.on('error', () => resolve());
        req.on('response', () => resolve());
        const cmd = pkt(`${ZERO} ${'3'.repeat(40)} refs/heads/cut\0report-status\n`);
        req.write(cut === 'head' ? cmd.subarray(0, 20) : Buffer.concat([cmd, Buffer.from('0000PACK\0\0\0\x02\0\0\0\x05')]));
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 150);
      });
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(refs()).to.equal(before);
    const probe = await post('git-receive-pack', '0000');
    expect(probe.status).to.equal(200);
  });
});
