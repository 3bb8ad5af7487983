// Repository read benchmark: Wharf over HTTP against native git doing the same work, on a
// real bare repository (BENCH_REPO). Run by hand, never in CI:
//   BENCH_REPO=/tmp/bench-repo.git node dist/bench/repository.js [runs]
// Prints a markdown table (also written to bench/results/repository.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Api, runMain, writeResults } from './harness.js';
import { gitSync, msSince, now, timeIt, withInProcessServer } from './timing.js';

const repo = process.env.BENCH_REPO;
if (!repo || !fs.existsSync(path.join(repo, 'HEAD'))) {
  console.error('set BENCH_REPO to a bare git repository');
  process.exit(2);
}
const runs = Number(process.argv[2] ?? 5);

const gitOut = (args: string[]) => gitSync(['-C', repo!, ...args]);

async function main() {
  const loadBefore = os.loadavg()[0];
  await withInProcessServer('wharf-bench-', async (server, dir) => {
    const api = new Api(server.url);
    const get = (p: string) => api.raw(p);
    const { body: created } = await api.call<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'bench', visibility: 'private' });
    const target = path.join(dir, 'repos', `${created.path_with_namespace}.git`);
    fs.rmSync(target, { recursive: true, force: true });
    fs.cpSync(repo!, target, { recursive: true });
    const id = created.id;
    const head = gitOut(['rev-parse', 'HEAD']).toString().trim();
    const firstParents = gitOut(['rev-list', '--first-parent', '--max-count=201', 'HEAD']).toString().trim().split('\n');
    const from = firstParents[firstParents.length - 1];
    const blob = gitOut(['rev-parse', 'HEAD:README.md']).toString().trim();
    const commits = gitOut(['rev-list', '--count', 'HEAD']).toString().trim();
    const count = gitOut(['rev-list', '--count', `${from}..HEAD`])
      .toString()
      .trim();

    const rows: [string, number, number][] = [];
    const row = async (name: string, ours: () => Promise<unknown>, native: () => unknown, n = runs) => {
      await ours().catch((e) => console.error(`${name}: ${(e as Error).message}`)); // warm the pack cache
      const w = await timeIt(n, ours).catch(() => NaN);
      const g = await timeIt(n, native);
      rows.push([name, w, g]);
    };
    await row(
      'tree recursive (100/page)',
      () => get(`/projects/${id}/repository/tree?recursive=true&per_page=100`),
      () => gitOut(['ls-tree', '-r', '-t', 'HEAD']),
    );
    await row(
      'raw blob README.md',
      () => get(`/projects/${id}/repository/blobs/${blob}/raw`),
      () => gitOut(['cat-file', '-p', blob]),
    );
    await row(
      'archive tar.gz',
      () => get(`/projects/${id}/repository/archive.tar.gz?sha=${head}`),
      () => gitOut(['archive', '--format=tar.gz', 'HEAD']),
      3,
    );
    await row(
      `compare (${count} commits apart)`,
      () => get(`/projects/${id}/repository/compare?from=${from}&to=${head}`),
      () => {
        gitOut(['log', '--format=%H%n%an%n%ae%n%at%n%B', `${from}..HEAD`]);
        gitOut(['diff', '-M', `${from}...HEAD`]);
      },
      3,
    );
    // Contributors: the first request walks and diffs; later ones hit the cache.
    const t0 = now();
    await get(`/projects/${id}/repository/contributors`);
    const cold = msSince(t0);
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
    writeResults('repository.md', text);
  });
}

runMain(main);
