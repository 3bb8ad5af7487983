// GET /api/v4/docs: Swagger UI, served from the installed swagger-ui-dist package, renders the
// OpenAPI document in a real headless Chromium (Debian's, installed by `make test`); the test
// reads the rendered endpoint list, checks that the page fetched nothing from outside the
// server, and decodes the screenshot to check it is a real picture. The viewer's files are
// served by name from a fixed list: nothing else of the disk can be asked for.
import { ROUTE_TABLES } from '../../src/api/core/route_tables.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext } from 'playwright-core';
import { PNG } from 'pngjs';
import { bootServer, type TestServer } from '../helpers/server.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('API docs page', function () {
  this.timeout(120_000);
  let s: TestServer;
  before(async () => {
    s = await bootServer();
  });
  after(() => s.close());

  it("is an HTML page that loads only this server's scripts", async () => {
    const r = await s.get('/api/v4/docs', { token: null });
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).to.contain("script-src 'self'");
    expect(r.text).to.contain('<script src="/api/v4/docs/assets/swagger-ui-bundle.js"></script>');
    expect(r.text).to.not.match(/https?:\/\//);
  });

  it('serves the viewer from the installed package, and conditional GETs', async () => {
    const js = await s.get('/api/v4/docs/assets/swagger-ui-bundle.js', { token: null });
    expect(js.status).to.equal(200);
    expect(js.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(js.text).to.equal(fs.readFileSync(path.resolve('node_modules/swagger-ui-dist/swagger-ui-bundle.js'), 'utf8'));
    // (fetch adds `Cache-Control: no-cache` to a conditional request unless one is given, as a browser revalidating does not.)
    const conditional = { 'If-None-Match': js.headers.get('etag')!, 'Cache-Control': 'max-age=0' };
    const again = await s.get('/api/v4/docs/assets/swagger-ui-bundle.js', { token: null, headers: conditional });
    expect(again.status).to.equal(304);
    expect(again.text).to.equal('');
    const css = await s.get('/api/v4/docs/assets/swagger-ui.css', { token: null });
    expect([css.status, css.headers.get('content-type')]).to.deep.equal([200, 'text/css; charset=utf-8']);
    const own = await s.get('/api/v4/docs/assets/wharf-docs.js', { token: null });
    expect(own.status).to.equal(200);
    expect(own.text).to.contain("url: '/api/v4/openapi.json'").and.contain('validatorUrl: null');
  });

  it('serves no other file: unknown names, other files of the package, paths out of it', async () => {
    const probes = [
      'index.html', // in the package, not on the list
      'package.json',
      'swagger-ui-bundle.js.map',
      '..%2Fpackage.json',
      '..%2F..%2F..%2Fpackage.json',
      '%2E%2E%2F%2E%2E%2Fkoa%2Fpackage.json',
      '%2Fetc%2Fpasswd',
      'swagger-ui.css%00.js',
      '.%2Fswagger-ui.css',
      '__proto__',
      'constructor',
    ];
    for (const name of probes) {
      const r = await s.get(`/api/v4/docs/assets/${name}`, { token: null });
      expect({ name, status: r.status, body: r.body }).to.deep.equal({ name, status: 404, body: { message: '404 File Not Found' } });
    }
    // A name with more segments is no route at all.
    const deeper = await s.get('/api/v4/docs/assets/dist/swagger-ui.css', { token: null });
    expect([deeper.status, deeper.body]).to.deep.equal([404, { error: '404 Not Found' }]);
  });

  it('renders the endpoint list in headless Chromium (screenshot checked)', async () => {
    expect(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make system-deps\` installs Debian's chromium`).to.equal(true);
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-chromium-'));
    let context: BrowserContext | undefined;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1280, height: 900 },
      });
      const page = context.pages()[0] ?? (await context.newPage());
      const requested: string[] = [];
      const problems: string[] = [];
      page.on('request', (req) => requested.push(req.url()));
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
      });

      const res = await page.goto(`${s.url}/api/v4/docs`, { waitUntil: 'load' });
      expect(res?.status()).to.equal(200);
      // Every family of the route table is listed (folded: a click opens one).
      await page.waitForSelector('.opblock-tag', { timeout: 60_000 });
      const tags = await page.$$eval('.opblock-tag', (els) => els.map((e) => (e as HTMLElement).innerText.split('\n')[0].trim()));
      expect(tags).to.include.members(ROUTE_TABLES.map((t) => t.family));
      const text0 = await page.evaluate(() => document.body.innerText);
      expect(text0).to.contain('Wharf API v4');
      const opened: Record<string, string> = {
        labels: '/projects/{id}/labels',
        branches: '/projects/{id}/repository/branches',
        milestones: '/projects/{id}/milestones/{milestone_id}',
        files: '/projects/{id}/repository/files/{file_path}',
        issues: '/projects/{id}/issues/{issue_iid}',
        docs: '/openapi.json',
      };
      for (const [family, wanted] of Object.entries(opened)) {
        await page.click(`.opblock-tag[data-tag="${family}"]`);
        await page.waitForFunction((p) => document.body.innerText.includes(p), wanted, { timeout: 30_000 }).catch(() => undefined);
        expect(await page.evaluate(() => document.body.innerText), wanted).to.contain(wanted);
      }
      const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => (e as HTMLElement).innerText.trim()));
      expect(paths.length).to.be.greaterThan(20);

      // Everything came from this server (no CDN, no online validator) and nothing failed.
      expect(requested.filter((u) => !u.startsWith(`${s.url}/`))).to.deep.equal([]);
      expect(requested).to.include(`${s.url}/api/v4/openapi.json`);
      expect(problems).to.deep.equal([]);

      const shot = await page.screenshot({ fullPage: false });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-docs-shot-'));
      fs.writeFileSync(path.join(dir, 'docs.png'), shot);
      const png = PNG.sync.read(shot);
      expect([png.width, png.height]).to.deep.equal([1280, 900]);
      // Not blank: many colours, and a good share of pixels that are not the background.
      const colours = new Set<number>();
      let background = 0;
      const first = png.data.readUInt32BE(0);
      for (let i = 0; i < png.data.length; i += 4) {
        const px = png.data.readUInt32BE(i);
        colours.add(px);
        if (px === first) background++;
      }
      expect(colours.size, 'distinct colours').to.be.greaterThan(50);
      expect(background / (png.width * png.height), 'share of the background colour').to.be.lessThan(0.97);
      fs.rmSync(dir, { recursive: true, force: true });
    } finally {
      await context?.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });
});
