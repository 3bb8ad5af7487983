// The process runner on its own: idle timeouts, clients that go away, children that fail.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { runService, type ServiceResult, type ServiceRun } from '../../src/transport/spawn.js';
import { pkt } from '../../src/transport/pktline.js';

type Options = Partial<ServiceRun> & { args: string[] };

/** A server whose every request runs `sh -c <script>`; resolves the runner's results. */
async function serve(opts: (req: http.IncomingMessage) => Options) {
  const results: Promise<ServiceResult>[] = [];
  const server = http.createServer((req, res) => {
    const o = opts(req);
    results.push(
      runService({ command: 'sh', env: process.env, input: null, res, headers: { 'Content-Type': 'application/x-test' }, killOnDisconnect: true, redact: (t) => t, ...o }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, results, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('transport: running git processes', function () {
  this.timeout(20_000);

  it('stops a child silent for longer than the idle timeout, with an ERR packet', async () => {
    const srv = await serve(() => ({ args: ['-c', 'sleep 30'], idleMs: 200 }));
    const started = Date.now();
    const res = await fetch(srv.url);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal(pkt('ERR the git process failed\n').toString());
    const result = await srv.results[0];
    expect(result.code).to.equal(null); // killed by a signal
    expect(Date.now() - started).to.be.below(5000);
    await srv.close();
  });

  it('stops a fetch whose client went away', async () => {
    const srv = await serve(() => ({ args: ['-c', 'echo started; sleep 30'] }));
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const req = http.get(srv.url, (res) => {
        res.once('data', (d: Buffer) => {
          expect(d.toString()).to.equal('started\n');
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
    });
    const result = await srv.results[0];
    expect(result.clientGone).to.equal(true);
    expect(result.code).to.equal(null);
    expect(Date.now() - started).to.be.below(5000);
    await srv.close();
  });

  it("lets a push's child finish after its client went away, and still runs the follow-up", async () => {
    let followedUp = false;
    const srv = await serve((req) => ({
      args: ['-c', 'cat >/dev/null; echo done; exit 0'],
      input: req,
      killOnDisconnect: false,
      beforeEnd: async () => {
        followedUp = true;
      },
    }));
    const body = new PassThrough();
    const req = http.request(srv.url, { method: 'POST' });
    req.on('error', () => {});
    body.pipe(req);
    body.write('partial body');
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    const result = await srv.results[0];
    expect(result.code).to.equal(0); // stdin ended: git would drop the incomplete pack itself
    expect(followedUp).to.equal(true);
    await srv.close();
  });

  it("shows the child's last fatal line, with server paths removed, when it fails silently", async () => {
    const srv = await serve(() => ({
      args: ['-c', 'echo "noise" >&2; echo "fatal: cannot read /srv/repos/a/b.git/objects" >&2; exit 128'],
      redact: (t) => t.split('/srv/repos/').join(''),
    }));
    const res = await fetch(srv.url);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal(pkt('ERR fatal: cannot read a/b.git/objects\n').toString());
    expect((await srv.results[0]).code).to.equal(128);
    await srv.close();
  });

  it('answers a clean ERR packet when git cannot be started at all', async () => {
    const srv = await serve(() => ({ command: '/nonexistent/git', args: [] }));
    const res = await fetch(srv.url);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal(pkt('ERR the git process failed\n').toString());
    await srv.close();
  });
});
