// Merge benchmark: accepting a merge request of 500 changed files through Wharf's API against
// native `git merge --no-ff` of the same branches in a work-tree clone. Run by hand, never in CI:
//   node dist/bench/merge.js [runs]          (default 5 runs; BENCH_FILES=500, BENCH_TOTAL=2000)
// Each run merges a fresh source commit (same tree, its own id) into the same target head, so
// the merge status check is never served from the cache. Prints a markdown table (also
// written to bench/results/merge.md).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

const TOKEN = 'bench-root-token-0123456789abcdef';
const runs = Number(process.argv[2] ?? 5);
const CHANGED = Number(process.env.BENCH_FILES ?? 500);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 2000);

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};
const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, env: ENV, maxBuffer: 1 << 30 }).toString().trim();
// Anything that talks to the server runs asynchronously: the server shares this event loop.
const gitAsync = async (cwd: string, args: string[]) => (await promisify(execFile)('git', args, { cwd, env: ENV, maxBuffer: 1 << 30 })).stdout.trim();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

function fileText(i: number, tag: string): string {
  return Array.from({ length: 40 }, (_, l) => `file ${i} line ${l}${l === 20 ? ` ${tag}` : ''}`).join('\n') + '\n';
}

async function main() {
  const loadBefore = os.loadavg()[0];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-merge-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    WHARF_DB: path.join(dir, 'db', 'wharf.sqlite3'),
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_ROOT_TOKEN: TOKEN,
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v4${p}`, {
      method,
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${p} → ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
    return json;
  };
  try {
    const project = (await api('POST', '/projects', { name: 'bench-merge', visibility: 'private' })) as { id: number; path_with_namespace: string };
    const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
    url.username = 'root';
    url.password = TOKEN;

    // The history: TOTAL files; the source changes CHANGED of them, the target changes others.
    const work = path.join(dir, 'work');
    git(dir, ['init', '-q', '-b', 'master', work]);
    for (let i = 0; i < TOTAL; i++) {
      fs.mkdirSync(path.join(work, `d${i % 50}`), { recursive: true });
      fs.writeFileSync(path.join(work, `d${i % 50}`, `f${i}.txt`), fileText(i, ''));
    }
    git(work, ['add', '-A']);
    git(work, ['commit', '-q', '-m', 'base']);
    git(work, ['checkout', '-q', '-b', 'feature']);
    for (let i = 0; i < CHANGED; i++) fs.writeFileSync(path.join(work, `d${i % 50}`, `f${i}.txt`), fileText(i, 'feature'));
    git(work, ['commit', '-q', '-am', 'feature: 500 files']);
    git(work, ['checkout', '-q', 'master']);
    for (let i = TOTAL - 100; i < TOTAL; i++) fs.writeFileSync(path.join(work, `d${i % 50}`, `f${i}.txt`), fileText(i, 'master'));
    git(work, ['commit', '-q', '-am', 'master moves on']);
    const master0 = git(work, ['rev-parse', 'master']);
    const featureTree = git(work, ['rev-parse', 'feature^{tree}']);
    const featureParent = git(work, ['rev-parse', 'feature^']);
    // One source commit per run: same tree, own id (no cache hit between runs).
    const sources: string[] = [];
    for (let r = 0; r < runs + 1; r++) {
      const c = git(work, ['commit-tree', featureTree, '-p', featureParent, '-m', `feature run ${r}`]);
      git(work, ['branch', '-f', `src${r}`, c]);
      sources.push(c);
    }
    await gitAsync(work, ['push', '-q', url.toString(), 'master', ...sources.map((_, r) => `src${r}`)]);
    const bare = path.join(dir, 'repos', `${project.path_with_namespace}.git`);

    const created: number[] = [];
    const merged: number[] = [];
    const native: number[] = [];
    const nativeCheck: number[] = [];
    for (let r = 0; r <= runs; r++) {
      git(bare, ['update-ref', 'refs/heads/master', master0]); // the same target head every run
      let t = process.hrtime.bigint();
      const mr = (await api('POST', `/projects/${project.id}/merge_requests`, { source_branch: `src${r}`, target_branch: 'master', title: `Run ${r}` })) as {
        iid: number;
        merge_status: string;
      };
      const createMs = ms(t);
      if (mr.merge_status !== 'can_be_merged') throw new Error(`merge status ${mr.merge_status}`);
      t = process.hrtime.bigint();
      const done = (await api('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/merge`)) as { state: string };
      const mergeMs = ms(t);
      if (done.state !== 'merged') throw new Error(`state ${done.state}`);

      // Native: the same merge in the work tree, and git's own test merge in the bare repository.
      git(work, ['checkout', '-q', '-f', '-B', 'master', master0]);
      t = process.hrtime.bigint();
      git(work, ['merge', '-q', '--no-ff', '-m', 'native', `src${r}`]);
      const nativeMs = ms(t);
      const other = git(work, ['commit-tree', featureTree, '-p', featureParent, '-m', `check ${r}`]);
      t = process.hrtime.bigint();
      git(work, ['merge-tree', '--write-tree', master0, other]);
      const checkMs = ms(t);
      if (r === 0) continue; // warm-up
      created.push(createMs);
      merged.push(mergeMs);
      native.push(nativeMs);
      nativeCheck.push(checkMs);
    }

    const rows: [string, number, string][] = [
      ['create MR (diff of 500 files + cold merge status check)', median(created), `merge-tree --write-tree: ${median(nativeCheck).toFixed(1)}`],
      ['PUT merge (merge commit, CAS, push events, refresh)', median(merged), `git merge --no-ff: ${median(native).toFixed(1)}`],
    ];
    const lines = [
      `${CHANGED} files changed on the source, 100 on the target, ${TOTAL} files in all; median of ${runs} runs after one warm-up; ` +
        `${os.cpus().length} cores, 1-min load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after`,
      '',
      '| operation | Wharf (HTTP) ms | native git ms |',
      '|---|---:|---|',
      ...rows.map(([n, w, g]) => `| ${n} | ${w.toFixed(1)} | ${g} |`),
    ];
    const text = lines.join('\n') + '\n';
    process.stdout.write(text);
    const out = path.join(path.dirname(new URL(import.meta.url).pathname), '../../bench/results');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'merge.md'), text);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
