// Benchmark of the Search API: boots Wharf in a child process on a temporary folder, writes a
// repository of 10,000 files straight into the project's bare repository (git fast-import),
// bulk-inserts 100,000 issues (the generator of issues.ts), then loads
// `GET /projects/:id/search?scope=blobs` (a rare term and a common one) beside native
// `git grep` of the same pattern, with the same options, on the same repository in the same
// run, and the issue searches (a project's and the global one) with autocannon.
// Run with `node dist/bench/search.js` after a build. See bench/README.md.
//
// Settings (environment): BENCH_ISSUES (100000), BENCH_FILES (10000), BENCH_DURATION seconds
// per run (5), BENCH_CONNECTIONS (10; each row is also run with 1 connection), BENCH_WARMUP
// (1), BENCH_GREP_RUNS (20: native git grep runs, median), BENCH_ONLY, BENCH_KEEP=1.
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openDb } from '../src/store/db.js';
import {
  afterBulkInsert,
  Api,
  intEnv,
  load,
  loadSettings,
  measure,
  preamble,
  probe,
  publish,
  ROOT_TOKEN,
  runMain,
  selected,
  table,
  withServer,
  isMain,
  type Row,
  type Scenario,
} from './harness.js';
import { insertIssues } from './issues.js';
import { median, msSince, now } from './timing.js';

const SETTINGS = {
  issues: intEnv('BENCH_ISSUES', 100_000),
  files: intEnv('BENCH_FILES', 10_000),
  grepRuns: intEnv('BENCH_GREP_RUNS', 20),
  ...loadSettings(5),
  keep: process.env.BENCH_KEEP === '1',
};
const WORDS = ['crash', 'parser', 'login', 'button', 'render', 'cache', 'timeout', 'memory', 'upload', 'export', 'branch', 'commit', 'runner', 'token', 'layout', 'mobile'];
/** In one file in a hundred: 100 files, the blob search's first page is all of them. */
const RARE = 'zanzibar';
/** In nearly every file: git grep finds thousands of groups, Wharf keeps the first 100. */
const COMMON = 'crash';

function fileText(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 30; l++) {
    const words = Array.from({ length: 8 }, (_, k) => WORDS[(i * 7 + l * 3 + k * 5) % WORDS.length]);
    if (l === 17 && i % 100 === 0) words.push(RARE);
    lines.push(`${l}: ${words.join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One commit of `files` files (in 100 folders) on master, through git fast-import. */
function writeRepository(gitdir: string, files: number): void {
  const parts: string[] = ['commit refs/heads/master', 'committer Bench <bench@example.com> 1767225600 +0000', 'data 12', 'bench files', ''];
  for (let i = 0; i < files; i++) {
    const text = fileText(i);
    parts.push(`M 100644 inline src/dir${String(i % 100).padStart(2, '0')}/file${i}.txt`, `data ${Buffer.byteLength(text)}`, text);
  }
  execFileSync('git', [`--git-dir=${gitdir}`, 'fast-import', '--quiet'], { input: parts.join('\n'), maxBuffer: 1 << 30 });
  execFileSync('git', [`--git-dir=${gitdir}`, 'symbolic-ref', 'HEAD', 'refs/heads/master']);
}

/** Median ms of native `git grep` with the options Wharf runs (git/grep.ts), and its groups. */
function nativeGrep(gitdir: string, term: string): { ms: number; groups: number } {
  const args = [`--git-dir=${gitdir}`, 'grep', '-i', '-I', '-n', '-z', '--before-context', '2', '--after-context', '2', '-F', '-e', term, 'master', '--'];
  const times: number[] = [];
  let out = '';
  for (let i = 0; i < SETTINGS.grepRuns; i++) {
    const t = now();
    out = execFileSync('git', args, { maxBuffer: 1 << 30 }).toString();
    times.push(msSince(t));
  }
  return { ms: median(times), groups: out.split('\n--\n').length };
}

interface SearchRow extends Row {
  xTotal: string;
  alone: { p50: number; p99: number };
  native: string;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  await withServer({ keep: SETTINGS.keep }, async (server) => {
    const root = new Api(server.url, ROOT_TOKEN);
    const { body: rootUser } = await root.call('GET', '/user');
    const developerId = await root.createUser('developer', 'Bench developer');
    const developer = { id: developerId, username: 'developer', token: await root.impersonationToken(developerId) };
    const { body: project } = await root.call('POST', '/projects', { name: 'big-tracker', visibility: 'private' });
    await root.call('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    const labels = [];
    for (let l = 0; l < 3; l++) labels.push((await root.call('POST', `/projects/${project.id}/labels`, { name: `label-${l}`, color: '#428bca' })).body);
    const { body: milestone } = await root.call('POST', `/projects/${project.id}/milestones`, { title: 'Release 1.0' });

    console.error(`writing ${SETTINGS.files} files…`);
    const gitdir = path.join(server.dir, 'repos', `${project.path_with_namespace}.git`);
    let t = now();
    writeRepository(gitdir, SETTINGS.files);
    const repoSeconds = msSince(t) / 1000;
    console.error(`seeding ${SETTINGS.issues} issues…`);
    t = now();
    const db = openDb(server.dbFile, 1);
    try {
      await insertIssues(db, project.id, rootUser.id, [developer, { id: rootUser.id, username: 'root', token: ROOT_TOKEN }], labels, [milestone], SETTINGS.issues);
      await afterBulkInsert(db, ['issues']);
    } finally {
      await db.destroy();
    }
    const issueSeconds = msSince(t) / 1000;

    const base = `/api/v4/projects/${project.id}/search`;
    const who = `${developer.username} (developer)`;
    const natives = new Map<string, string>();
    for (const term of [RARE, COMMON]) {
      const n = nativeGrep(gitdir, term);
      natives.set(term, `${n.ms.toFixed(1)} ms (${n.groups} groups)`);
    }
    const scenarios: (Scenario & { native: string })[] = selected([
      { endpoint: `GET /projects/:id/search?scope=blobs&search=${RARE}`, who, token: developer.token, paths: [`${base}?scope=blobs&search=${RARE}`], native: natives.get(RARE)! },
      {
        endpoint: `GET /projects/:id/search?scope=blobs&search=${COMMON}`,
        who,
        token: developer.token,
        paths: [`${base}?scope=blobs&search=${COMMON}`],
        native: natives.get(COMMON)!,
      },
      { endpoint: 'GET /projects/:id/search?scope=issues&search=crash', who, token: developer.token, paths: [`${base}?scope=issues&search=crash`], native: '-' },
      {
        endpoint: 'GET /projects/:id/search?scope=issues&search="crash parser login"',
        who,
        token: developer.token,
        paths: [`${base}?scope=issues&search=%22crash%20parser%20login%22`],
        native: '-',
      },
      { endpoint: 'GET /search?scope=issues&search=crash', who, token: developer.token, paths: ['/api/v4/search?scope=issues&search=crash'], native: '-' },
      { endpoint: 'GET /search?scope=issues&search=crash', who: 'root (admin)', token: ROOT_TOKEN, paths: ['/api/v4/search?scope=issues&search=crash'], native: '-' },
    ]);
    const rows: SearchRow[] = [];
    for (const s of scenarios) {
      console.error(`${s.endpoint} as ${s.who}…`);
      const xTotal = await probe(server.url, s);
      const row = await measure(server.url, s, SETTINGS);
      const one = await load(server.url, s, SETTINGS.duration, 1);
      rows.push({ ...row, xTotal, alone: { p50: one.latency.p50, p99: one.latency.p99 }, native: s.native });
      console.error(`  ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms; alone p50 ${one.latency.p50} ms (native git grep ${s.native})`);
    }
    const loadAfter = os.loadavg();
    const heading = [
      ...preamble('# Wharf search benchmark'),
      `- Data: one private project; its repository one commit of ${SETTINGS.files} files of 30 lines (written with git fast-import in ${repoSeconds.toFixed(1)} s; \`${RARE}\` in one file in a hundred, \`${COMMON}\` in nearly every one), ${SETTINGS.issues} issues bulk-inserted with knex (${issueSeconds.toFixed(1)} s).`,
      `- Load: autocannon in this process on the same ${os.cpus().length} cores, ${SETTINGS.connections} connections, ${SETTINGS.duration} s per row after a ${SETTINGS.warmup} s warm-up, then ${SETTINGS.duration} s with 1 connection. Native git grep: median of ${SETTINGS.grepRuns} runs of the same command, its whole output (Wharf stops after 100 groups).`,
      `- Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)}.`,
      '',
    ].join('\n');
    const columns = table(
      rows,
      [{ head: 'X-Total', cell: (r) => r.xTotal }],
      [
        { head: '1 conn p50 ms', cell: (r) => r.alone.p50 },
        { head: '1 conn p99 ms', cell: (r) => r.alone.p99 },
        { head: 'native git grep', cell: (r) => r.native },
      ],
    );
    publish('search.md', heading, columns, rows);
  });
}

if (isMain(import.meta.url)) runMain(main);
