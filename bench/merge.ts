// Merge benchmark: accepting a merge request of 500 changed files through Wharf's API against
// native `git merge --no-ff` of the same branches in a work-tree clone. Run by hand, never in CI:
//   node dist/bench/merge.js [runs]          (default 5 runs; BENCH_FILES=500, BENCH_TOTAL=2000)
// Each run merges a fresh source commit (same tree, its own id) into the same target head, so
// the merge status check is never served from the cache. Prints a markdown table (also
// written to bench/results/merge.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Api, ROOT_TOKEN, runMain, writeResults } from './harness.js';
import { gitAsync, gitSync, median, msSince, now, withInProcessServer } from './timing.js';

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
const git = (cwd: string, args: string[]) => gitSync(args, { cwd, env: ENV }).toString().trim();

function fileText(i: number, tag: string): string {
  return Array.from({ length: 40 }, (_, l) => `file ${i} line ${l}${l === 20 ? ` ${tag}` : ''}`).join('\n') + '\n';
}

async function main() {
  const loadBefore = os.loadavg()[0];
  await withInProcessServer('wharf-bench-merge-', async (server, dir) => {
    const root = new Api(server.url);
    const api = async (method: string, p: string, body?: unknown) => (await root.call(method, p, body)).body;
    const project = (await api('POST', '/projects', { name: 'bench-merge', visibility: 'private' })) as { id: number; path_with_namespace: string };
    const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
    url.username = 'root';
    url.password = ROOT_TOKEN;

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
    await gitAsync(['push', '-q', url.toString(), 'master', ...sources.map((_, r) => `src${r}`)], { cwd: work, env: ENV });
    const bare = path.join(dir, 'repos', `${project.path_with_namespace}.git`);

    const created: number[] = [];
    const merged: number[] = [];
    const native: number[] = [];
    const nativeCheck: number[] = [];
    for (let r = 0; r <= runs; r++) {
      git(bare, ['update-ref', 'refs/heads/master', master0]); // the same target head every run
      let t = now();
      const mr = (await api('POST', `/projects/${project.id}/merge_requests`, { source_branch: `src${r}`, target_branch: 'master', title: `Run ${r}` })) as {
        iid: number;
        merge_status: string;
      };
      const createMs = msSince(t);
      if (mr.merge_status !== 'can_be_merged') throw new Error(`merge status ${mr.merge_status}`);
      t = now();
      const done = (await api('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/merge`)) as { state: string };
      const mergeMs = msSince(t);
      if (done.state !== 'merged') throw new Error(`state ${done.state}`);

      // Native: the same merge in the work tree, and git's own test merge in the bare repository.
      git(work, ['checkout', '-q', '-f', '-B', 'master', master0]);
      t = now();
      git(work, ['merge', '-q', '--no-ff', '-m', 'native', `src${r}`]);
      const nativeMs = msSince(t);
      const other = git(work, ['commit-tree', featureTree, '-p', featureParent, '-m', `check ${r}`]);
      t = now();
      git(work, ['merge-tree', '--write-tree', master0, other]);
      const checkMs = msSince(t);
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
    writeResults('merge.md', text);
  });
}

runMain(main);
