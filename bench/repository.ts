// Repository read benchmark: Wharf over HTTP against native git doing the same work, on a
// real bare repository (BENCH_REPO). Run by hand, never in CI:
//   BENCH_REPO=/tmp/bench-repo.git node dist/bench/repository.js [runs]
// Prints a markdown table (also written to bench/results/repository.md).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

const TOKEN = 'bench-root-token-0123456789abcdef';
const repo = process.env.BENCH_REPO;
if (!repo || !fs.existsSync(path.join(repo, 'HEAD'))) {
  console.error('set BENCH_REPO to a bare git repository');
  process.exit(2);
}
const runs = Number(process.argv[2] ?? 5);

const gitOut = (args: string[]) => execFileSync('git', ['-C', repo!, ...args], { maxBuffer: 1 << 30 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeIt(n: number, f: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await f();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

async function main() {
  const loadBefore = os.loadavg()[0];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    WHARF_DB: path.join(dir, 'db', 'wharf.sqlite3'),
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_ROOT_TOKEN: TOKEN,
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  const api = (p: string) => `${server.url}/api/v4${p}`;
  const get = async (p: string) => {
    const res = await fetch(api(p), { headers: { 'PRIVATE-TOKEN': TOKEN } });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${p} → ${res.status} ${body.toString().slice(0, 200)}`);
    return body;
  };
  try {
    const created = await (await fetch(api('/projects'), {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', visibility: 'private' }),
    })).json() as { id: number; path_with_namespace: string };
    const target = path.join(dir, 'repos', `${created.path_with_namespace}.git`);
    fs.rmSync(target, { recursive: true, force: true });
    fs.cpSync(repo!, target, { recursive: true });
    const id = created.id;
    const head = gitOut(['rev-parse', 'HEAD']).toString().trim();
    const firstParents = gitOut(['rev-list', '--first-parent', '--max-count=201', 'HEAD']).toString().trim().split('\n');
    const from = firstParents[firstParents.length - 1];
    const blob = gitOut(['rev-parse', 'HEAD:README.md']).toString().trim();
    const commits = gitOut(['rev-list', '--count', 'HEAD']).toString().trim();
    const count = gitOut(['rev-list', '--count', `${from}..HEAD`]).toString().trim();

    const rows: [string, number, number][] = [];
    const row = async (name: string, ours: () => Promise<unknown>, native: () => unknown, n = runs) => {
      await ours().catch((e) => console.error(`${name}: ${(e as Error).message}`)); // warm the pack cache
      const w = await timeIt(n, ours).catch(() => NaN);
      const g = await timeIt(n, native);
      rows.push([name, w, g]);
    };
    await row('tree recursive (100/page)', () => get(`/projects/${id}/repository/tree?recursive=true&per_page=100`), () => gitOut(['ls-tree', '-r', '-t', 'HEAD']));
    await row('raw blob README.md', () => get(`/projects/${id}/repository/blobs/${blob}/raw`), () => gitOut(['cat-file', '-p', blob]));
    await row('archive tar.gz', () => get(`/projects/${id}/repository/archive.tar.gz?sha=${head}`), () => gitOut(['archive', '--format=tar.gz', 'HEAD']), 3);
    await row(`compare (${count} commits apart)`, () => get(`/projects/${id}/repository/compare?from=${from}&to=${head}`), () => {
      gitOut(['log', '--format=%H%n%an%n%ae%n%at%n%B', `${from}..HEAD`]);
      gitOut(['diff', '-M', `${from}...HEAD`]);
    }, 3);
    // Contributors: the first request walks and diffs; later ones hit the cache.
    const t0 = process.hrtime.bigint();
    await get(`/projects/${id}/repository/contributors`);
    const cold = Number(process.hrtime.bigint() - t0) / 1e6;
    const nativeLog = await timeIt(1, () => gitOut(['log', '--no-merges', '--numstat', '-M', '--max-count=2000', '--format=%ae%x09%an', 'HEAD']));
    rows.push(['contributors (cold, 2000 commits)', cold, nativeLog]);
    const warm = await timeIt(20, () => get(`/projects/${id}/repository/contributors`));
    rows.push(['contributors (cached)', warm, nativeLog]);

    const fmt = (x: number) => (Number.isNaN(x) ? 'n/a' : x.toFixed(1));
    const lines = [
      `Repository: ${path.basename(repo!)} (${commits} commits), median of ${runs} runs (archive/compare 3), ${os.cpus().length} cores, ` +
        `1-min load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after (above ~1 the machine was shared)`,
      '',
      '| operation | Wharf (HTTP) ms | native git ms | ratio |',
      '|---|---:|---:|---:|',
      ...rows.map(([n, w, g]) => `| ${n} | ${fmt(w)} | ${fmt(g)} | ${Number.isNaN(w) ? 'n/a' : (w / g).toFixed(2) + 'x'} |`),
    ];
    const text = lines.join('\n') + '\n';
    process.stdout.write(text);
    const out = path.join(path.dirname(new URL(import.meta.url).pathname), '../../bench/results');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'repository.md'), text);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
