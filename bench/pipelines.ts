// CI: the built-in runner's scheduling overhead and the pipeline list at 10,000 pipelines.
//
//   node dist/bench/pipelines.js          (after `npx tsc -p tsconfig.json`)
//   BENCH_RUNS=5 BENCH_PIPELINES=10000 BENCH_DURATION=10 node dist/bench/pipelines.js
//
// 1. Overhead: Wharf in a child process with WHARF_RUNNER=shell, WHARF_RUNNER_CONCURRENCY=2; an
//    API commit of a .gitlab-ci.yml with 3 stages and 20 trivial jobs (`true`), BENCH_RUNS (3)
//    times. Wall = from the commit request to the pipeline seen `success` (polled every 20 ms).
//    The scripts' own time: each job's bash run alone (`bash -c true` in a fresh process, timed
//    here, × 20 / 2 slots). Overhead = wall − that; per job = overhead / 20 (pipeline creation,
//    pickup, checkout, trace, status moves and the next stage's processing).
// 2. List: BENCH_PIPELINES (10,000) pipelines inserted into one project's database, then
//    `GET /projects/:id/pipelines` (default page) under autocannon (loadSettings).
// Prints markdown and writes bench/results/pipelines.md.
import { execFileSync } from 'node:child_process';
import { openDb } from '../src/store/db.js';
import { afterBulkInsert, Api, intEnv, loadSettings, measure, preamble, ROOT_TOKEN, runMain, sleep, withServer, writeResults } from './harness.js';

const RUNS = intEnv('BENCH_RUNS', 3);
const PIPELINES = intEnv('BENCH_PIPELINES', 10_000);
const JOBS_PER_STAGE = [7, 7, 6];

function ciFile(run: number): string {
  const lines = ['stages: [one, two, three]'];
  JOBS_PER_STAGE.forEach((count, s) => {
    for (let j = 0; j < count; j++) lines.push(`job_${s}_${j}:`, `  stage: ${['one', 'two', 'three'][s]}`, `  script: "true # ${run}"`);
  });
  return `${lines.join('\n')}\n`;
}

function bashTrueMs(): number {
  const t = process.hrtime.bigint();
  for (let i = 0; i < 20; i++) execFileSync('bash', ['--noprofile', '--norc', '-c', 'true']);
  return Number(process.hrtime.bigint() - t) / 1e6 / 20;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const out = preamble('# CI pipelines');
  await withServer({ env: { WHARF_RUNNER: 'shell', WHARF_RUNNER_CONCURRENCY: '2', WHARF_JOB_POLL_MS: '1000' } }, async (server) => {
    const api = new Api(server.url, ROOT_TOKEN);
    const { body: project } = await api.call('POST', '/projects', { name: 'bench-ci' });
    const walls: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const t0 = Date.now();
      const { body: commit } = await api.call('POST', `/projects/${project.id}/repository/commits`, {
        branch: 'master',
        commit_message: `run ${run}`,
        actions: [{ action: run === 0 ? 'create' : 'update', file_path: '.gitlab-ci.yml', content: ciFile(run) }],
      });
      for (;;) {
        const { body } = await api.call('GET', `/projects/${project.id}/pipelines?sha=${commit.id}`);
        if (body[0] && ['success', 'failed', 'canceled'].includes(body[0].status)) {
          if (body[0].status !== 'success') throw new Error(`pipeline ${body[0].id} ${body[0].status}`);
          break;
        }
        await sleep(20);
      }
      walls.push(Date.now() - t0);
    }
    const scriptMs = (bashTrueMs() * 20) / 2;
    const wall = median(walls);
    out.push(
      '',
      '## Runner scheduling overhead (3 stages, 20 jobs of `true`, WHARF_RUNNER_CONCURRENCY=2)',
      '',
      '| runs | wall p50 (ms) | walls (ms) | scripts alone (ms) | overhead (ms) | per job (ms) |',
      '|---|---|---|---|---|---|',
      `| ${RUNS} | ${wall} | ${walls.join(', ')} | ${scriptMs.toFixed(0)} | ${(wall - scriptMs).toFixed(0)} | ${((wall - scriptMs) / 20).toFixed(0)} |`,
    );

    // 2. The list at PIPELINES pipelines.
    const db = openDb(server.dbFile, 2);
    try {
      const sha = (await db('ci_pipelines').where({ project_id: project.id }).first('sha')).sha;
      const maxId: number = (await db('ci_pipelines').max('id as m').first())!.m ?? 0;
      const stamp = new Date().toISOString();
      const rows = Array.from({ length: PIPELINES }, (_, i) => ({
        id: maxId + 1 + i,
        project_id: project.id,
        ref: i % 3 ? 'master' : `feature-${i % 50}`,
        sha,
        tag: false,
        status: ['success', 'failed', 'canceled', 'pending'][i % 4],
        source: 'push',
        user_id: 1,
        created_at: stamp,
        updated_at: stamp,
      }));
      for (let i = 0; i < rows.length; i += 500) await db('ci_pipelines').insert(rows.slice(i, i + 500));
      await afterBulkInsert(db, ['ci_pipelines']);
    } finally {
      await db.destroy();
    }
    const settings = loadSettings(10);
    const row = await measure(
      server.url,
      { endpoint: 'GET /projects/:id/pipelines', who: 'root', token: ROOT_TOKEN, paths: [`/api/v4/projects/${project.id}/pipelines`] },
      settings,
    );
    out.push(
      '',
      `## Pipeline list at ${PIPELINES + RUNS} pipelines (autocannon, ${settings.connections} connections, ${settings.duration} s)`,
      '',
      '| endpoint | req/s | p50 (ms) | p90 (ms) | p99 (ms) | non-2xx |',
      '|---|---|---|---|---|---|',
      `| ${row.endpoint} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p90} | ${row.p99} | ${row.non2xx} |`,
    );
  });
  const text = `${out.join('\n')}\n`;
  console.log(text);
  writeResults('pipelines.md', text);
}

runMain(main);
