// Git LFS transfer benchmark: one large object (1 GB by default, BENCH_LFS_MB) uploaded to and
// downloaded from Wharf's LFS object endpoints with `curl`, beside `curl` against a minimal
// static file server in this process doing the same work (PUT: stream to a file, hashing it;
// GET: stream the file) on the same disk, in the same run; and the RSS of the server's processes
// while it streams (flat: nothing is buffered). Run by hand, never in CI:
//   node dist/bench/lfs.js [runs]
// Prints a markdown table (also written to bench/results/lfs.md). Goal: within 1.3x of the
// static server.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { Api, intEnv, ROOT_TOKEN, runMain, treeRssMb, withServer, writeResults } from './harness.js';
import { median, msSince, now } from './timing.js';

const run = promisify(execFile);
const runs = Number(process.argv[2] ?? 3);
const MB = intEnv('BENCH_LFS_MB', 1024);

/** A file of MB pseudo-random megabytes; its SHA-256. */
async function makeObject(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(file);
  const block = crypto.randomBytes(1024 * 1024);
  for (let i = 0; i < MB; i++) {
    block.writeUInt32LE(i, 0); // every megabyte differs, so nothing compresses or dedups
    hash.update(block);
    if (!out.write(block)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return hash.digest('hex');
}

/** The ceiling: PUT streams the body into a file through SHA-256 and flushes it; GET streams it back. */
function staticServer(dir: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, 'static.bin');
    if (req.method === 'PUT') {
      const hash = crypto.createHash('sha256');
      const through = new Transform({ transform: (c, _e, done) => (hash.update(c), done(null, c)) });
      pipeline(req, through, fs.createWriteStream(file, { flush: true })).then(
        () => res.end(hash.digest('hex')),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() })),
  );
}

async function curl(args: string[]): Promise<number> {
  const t = now();
  await run('curl', ['-sS', '--fail', '-o', '/dev/null', ...args], { maxBuffer: 1024 * 1024 });
  return msSince(t);
}

/** Runs `f` while sampling the RSS of the server's processes every 100 ms; the peak total, in MB. */
async function peakRss(pid: number | undefined, f: () => Promise<number>): Promise<{ ms: number; peak: number }> {
  let peak = 0;
  const timer = setInterval(
    () =>
      (peak = Math.max(
        peak,
        treeRssMb(pid).reduce((a, b) => a + b, 0),
      )),
    100,
  );
  try {
    const ms = await f();
    return { ms, peak };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  await withServer({}, async (server) => {
    const root = new Api(server.url);
    const { body: project } = await root.call<{ path_with_namespace: string }>('POST', '/projects', { name: 'big-files', visibility: 'private' });
    const file = path.join(server.dir, 'object.bin');
    console.error(`writing a ${MB} MB object…`);
    const oid = await makeObject(file);
    const size = fs.statSync(file).size;
    const repo = `${server.url}/${project.path_with_namespace}.git`;
    const storedFile = path.join(server.dir, 'repos', '@wharf', 'lfs', 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);
    const ceiling = await staticServer(server.dir);
    const auth = ['-u', `root:${ROOT_TOKEN}`];
    const idle = treeRssMb(server.child.pid).reduce((a, b) => a + b, 0);
    const t = { up: [] as number[], down: [] as number[], upStatic: [] as number[], downStatic: [] as number[] };
    let upPeak = 0;
    let downPeak = 0;
    for (let i = 0; i < runs; i++) {
      fs.rmSync(storedFile, { force: true }); // each upload stores the object anew
      const up = await peakRss(server.child.pid, () => curl([...auth, '-H', 'Content-Type: application/octet-stream', '-T', file, `${repo}/gitlab-lfs/objects/${oid}/${size}`]));
      t.up.push(up.ms);
      upPeak = Math.max(upPeak, up.peak);
      t.upStatic.push(await curl(['-T', file, `${ceiling.url}/static.bin`]));
      const down = await peakRss(server.child.pid, () => curl([...auth, `${repo}/gitlab-lfs/objects/${oid}`]));
      t.down.push(down.ms);
      downPeak = Math.max(downPeak, down.peak);
      t.downStatic.push(await curl([`${ceiling.url}/static.bin`]));
    }
    ceiling.close();
    const mbps = (ms: number) => (size / 1024 / 1024 / (ms / 1000)).toFixed(0);
    const row = (what: string, wharf: number[], native: number[], peak: number) =>
      `| ${what} | ${mbps(median(wharf))} MB/s | ${mbps(median(native))} MB/s | ${(median(wharf) / median(native)).toFixed(2)}x | ${peak} MB |`;
    const table = [
      `LFS transfer of one ${MB} MB object with curl, median of ${runs}; server RSS (all processes) ${idle} MB idle.`,
      '',
      '| transfer | Wharf | static server | Wharf ÷ static (time) | server RSS peak |',
      '|---|---|---|---|---|',
      row('upload (PUT, checked: SHA-256, size, flushed, renamed)', t.up, t.upStatic, upPeak),
      row('download (GET)', t.down, t.downStatic, downPeak),
      '',
    ].join('\n');
    console.log(table);
    writeResults('lfs.md', table);
  });
}

runMain(main);
