// Benchmark of the merge request endpoints: boots Wharf in a child process on a temporary
// folder; through the API creates users, labels, milestones, a branch changing 500 files (one
// commit of the commits API) and the merge request from it; bulk-inserts 10,000 more merge
// requests (with label links and award emoji) straight into the SQLite file with knex (the
// rows the services would write; their branches need not exist for the lists), then loads
// the lists, the single merge request and the 500-file `changes` with autocannon.
// Run with `make bench` (node dist/bench/merge_requests.js). See bench/README.md.
//
// Settings (environment): BENCH_MRS (10000), BENCH_FILES (500), BENCH_DURATION seconds per
// run (5), BENCH_CONNECTIONS (10), BENCH_WARMUP seconds before each run (1), BENCH_ONLY (a
// regular expression: only the rows whose "endpoint as who" matches), BENCH_KEEP=1.
import os from 'node:os';
import { openDb, type Db } from '../src/store/db.js';
import {
  afterBulkInsert,
  Api,
  intEnv,
  loadSettings,
  measure,
  preamble,
  prng,
  probe,
  publish,
  rssMb,
  ROOT_TOKEN,
  runMain,
  selected,
  table,
  withServer,
  isMain,
  type Identity,
  type Row,
  type Scenario,
} from './harness.js';

const SETTINGS = {
  mrs: intEnv('BENCH_MRS', 10_000),
  files: intEnv('BENCH_FILES', 500),
  ...loadSettings(5),
  keep: process.env.BENCH_KEEP === '1',
};
const PEOPLE = 20;
const LABELS = 10;
const MILESTONES = 5;
const WORDS = [
  'fix',
  'parser',
  'login',
  'button',
  'slow',
  'render',
  'cache',
  'timeout',
  'memory',
  'leak',
  'upload',
  'search',
  'export',
  'merge',
  'diff',
  'refactor',
  'docs',
  'tests',
  'api',
  'ui',
];

// ---------------------------------------------------------------------------------------------
// Seeding: users, labels, milestones and the big merge request through the API as root, the
// 10,000 list rows straight into the database.

interface Seed {
  projectId: number;
  bigIid: number;
  changes: number;
  reporter: Identity;
  developer: Identity;
  labels: string[];
  counts: { opened: number; labelLinks: number; awards: number };
  apiSeconds: number;
  dbSeconds: number;
}

/** A file of `n` lines, one of the 500 the big merge request adds or changes. */
function fileContent(i: number, changed: boolean): string {
  return Array.from({ length: 40 }, (_, k) => `file ${i} line ${k}${changed && k % 10 === 3 ? ' changed' : ''}`).join('\n') + '\n';
}

async function seed(root: Api, dbFile: string): Promise<Seed> {
  const started = Date.now();
  const people: Identity[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const username = i === 0 ? 'reporter' : `dev${String(i).padStart(2, '0')}`;
    people.push({ id: await root.createUser(username, `Bench ${username}`), username, token: '' });
  }
  for (const i of [0, 1]) {
    people[i].token = await root.impersonationToken(people[i].id);
  }
  const { body: project } = await root.call('POST', '/projects', { name: 'big-review', visibility: 'private' });
  for (let i = 0; i < PEOPLE; i++) await root.call('POST', `/projects/${project.id}/members`, { user_id: people[i].id, access_level: i === 0 ? 20 : 30 });
  const labels: { id: number; title: string }[] = [];
  for (let l = 0; l < LABELS; l++) {
    const { body } = await root.call('POST', `/projects/${project.id}/labels`, { name: `label-${l}`, color: '#428bca' });
    labels.push({ id: body.id, title: body.name });
  }
  const milestones: number[] = [];
  for (let m = 0; m < MILESTONES; m++) {
    const { body } = await root.call('POST', `/projects/${project.id}/milestones`, { title: `Release ${m + 1}.0` });
    milestones.push(body.id);
  }
  // master has half of the files; the branch changes those and adds the other half.
  const half = Math.floor(SETTINGS.files / 2);
  const commit = (branch: string, actions: unknown[], extra: Record<string, unknown> = {}) =>
    root.call('POST', `/projects/${project.id}/repository/commits`, { branch, commit_message: `seed ${branch}`, actions, ...extra });
  await commit(
    'master',
    Array.from({ length: half }, (_, i) => ({ action: 'create', file_path: `src/f${i}.txt`, content: fileContent(i, false) })),
  );
  await commit(
    'big',
    Array.from({ length: SETTINGS.files }, (_, i) =>
      i < half ? { action: 'update', file_path: `src/f${i}.txt`, content: fileContent(i, true) } : { action: 'create', file_path: `src/f${i}.txt`, content: fileContent(i, true) },
    ),
    { start_branch: 'master' },
  );
  const { body: big } = await root.call('POST', `/projects/${project.id}/merge_requests`, { title: 'Big change', source_branch: 'big', target_branch: 'master' });
  const apiSeconds = (Date.now() - started) / 1000;

  const dbStarted = Date.now();
  const db = openDb(dbFile, 1);
  try {
    const counts = await insertMergeRequests(db, project.id, big.iid, people, labels, milestones);
    await afterBulkInsert(db, ['merge_requests']);
    return {
      projectId: project.id,
      bigIid: big.iid,
      changes: Number(big.changes_count),
      reporter: people[0],
      developer: people[1],
      labels: labels.map((l) => l.title),
      counts,
      apiSeconds,
      dbSeconds: (Date.now() - dbStarted) / 1000,
    };
  } finally {
    await db.destroy();
  }
}

const CHUNK = 400;

/** Bulk-inserts `total` merge requests (fixed seed) with label links and award emoji. */
export async function insertMergeRequests(
  db: Db,
  projectId: number,
  firstIid: number,
  people: Identity[],
  labels: { id: number }[],
  milestones: number[],
  total = SETTINGS.mrs,
): Promise<Seed['counts']> {
  const rand = prng(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const sentence = (min: number, max: number) => Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => pick(WORDS)).join(' ');
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  const span = 365 * 24 * 3600 * 1000;
  const counts = { opened: 0, labelLinks: 0, awards: 0 };
  const [{ maxId }] = await db('merge_requests').max({ maxId: 'id' });
  let nextId = Number(maxId ?? 0) + 1;
  for (let from = 0; from < total; from += 10 * CHUNK) {
    const mrs: Record<string, unknown>[] = [];
    const links: Record<string, unknown>[] = [];
    const awards: Record<string, unknown>[] = [];
    for (let n = from; n < Math.min(from + 10 * CHUNK, total); n++) {
      const id = nextId++;
      const created = start + Math.floor((n / total) * span);
      const updatedAt = new Date(created + Math.floor(rand() * (start + span - created))).toISOString();
      const r = rand();
      const state = r < 0.3 ? 'opened' : r < 0.8 ? 'merged' : 'closed';
      counts.opened += state === 'opened' ? 1 : 0;
      const author = pick(people);
      mrs.push({
        id,
        target_project_id: projectId,
        iid: firstIid + n + 1,
        source_project_id: projectId,
        source_branch: `topic-${n}`,
        target_branch: 'master',
        title: sentence(3, 7),
        description: rand() < 0.8 ? sentence(10, 30) : null,
        state,
        author_id: author.id,
        assignee_id: rand() < 0.6 ? pick(people).id : null,
        milestone_id: rand() < 0.5 ? pick(milestones) : null,
        merge_status: state === 'opened' ? 'unchecked' : 'can_be_merged',
        changes_count: 1 + Math.floor(rand() * 20),
        merged_at: state === 'merged' ? updatedAt : null,
        merged_by_id: state === 'merged' ? pick(people).id : null,
        closed_at: state === 'closed' ? updatedAt : null,
        closed_by_id: state === 'closed' ? pick(people).id : null,
        user_notes_count: Math.floor(rand() * 8),
        created_at: new Date(created).toISOString(),
        updated_at: updatedAt,
      });
      const chosen = new Set<number>();
      const labelCount = Math.floor(rand() * 3);
      while (chosen.size < labelCount) chosen.add(pick(labels).id);
      for (const labelId of chosen) links.push({ target_type: 'merge_request', target_id: id, label_id: labelId });
      counts.labelLinks += chosen.size;
      const voters = new Set<number>();
      for (let k = Math.floor(rand() * 3); k > 0; k--) voters.add(pick(people).id);
      voters.delete(author.id);
      for (const userId of voters) {
        awards.push({
          awardable_type: 'MergeRequest',
          awardable_id: id,
          user_id: userId,
          name: rand() < 0.8 ? 'thumbsup' : 'thumbsdown',
          created_at: updatedAt,
          updated_at: updatedAt,
        });
      }
      counts.awards += voters.size;
    }
    await db.transaction(async (tx) => {
      for (const [table, rows] of [
        ['merge_requests', mrs],
        ['label_links', links],
        ['award_emoji', awards],
      ] as const) {
        for (let i = 0; i < rows.length; i += CHUNK) await tx(table).insert(rows.slice(i, i + CHUNK));
      }
    });
  }
  await db.transaction(async (tx) => {
    await tx('internal_ids').where({ project_id: projectId, usage: 'merge_requests' }).delete();
    await tx('internal_ids').insert({ project_id: projectId, usage: 'merge_requests', last_value: firstIid + total });
  });
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Load.

interface MrRow extends Row {
  xTotal: string;
}

async function run(url: string, s: Scenario): Promise<MrRow> {
  const xTotal = await probe(url, s);
  return { ...(await measure(url, s, SETTINGS)), xTotal };
}

function scenarios(seeded: Seed): Scenario[] {
  const base = `/api/v4/projects/${seeded.projectId}/merge_requests`;
  const root = { who: 'root (admin)', token: ROOT_TOKEN };
  const reporter = { who: `${seeded.reporter.username} (reporter)`, token: seeded.reporter.token };
  const developer = { who: `${seeded.developer.username} (developer)`, token: seeded.developer.token };
  const out: Scenario[] = [];
  for (const id of [root, reporter]) {
    out.push({ endpoint: 'GET /projects/:id/merge_requests', ...id, paths: [base] });
    out.push({ endpoint: 'GET /projects/:id/merge_requests?per_page=100', ...id, paths: [`${base}?per_page=100`] });
  }
  for (const [label, query] of [
    ['state=opened', 'state=opened'],
    [`labels=${seeded.labels[2]}`, `labels=${seeded.labels[2]}`],
    ['search=parser', 'search=parser'],
    ['order_by=updated_at&sort=asc', 'order_by=updated_at&sort=asc'],
    ['view=simple', 'view=simple'],
    ['page=400', 'page=400'],
  ]) {
    out.push({ endpoint: `GET /projects/:id/merge_requests?per_page=20&${label}`, ...reporter, paths: [`${base}?per_page=20&${query}`] });
  }
  out.push({ endpoint: 'GET /merge_requests?scope=all', ...developer, paths: ['/api/v4/merge_requests?scope=all'] });
  out.push({ endpoint: 'GET /merge_requests (created-by-me)', ...developer, paths: ['/api/v4/merge_requests'] });
  out.push({ endpoint: 'GET /projects/:id/merge_requests/:iid', ...reporter, paths: [`${base}/${seeded.bigIid}`] });
  out.push({ endpoint: `GET /projects/:id/merge_requests/:iid/changes (${seeded.changes} files)`, ...reporter, paths: [`${base}/${seeded.bigIid}/changes`] });
  out.push({ endpoint: 'GET /projects/:id/merge_requests/:iid/commits', ...reporter, paths: [`${base}/${seeded.bigIid}/commits`] });
  return selected(out);
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  const loadBefore = os.loadavg();
  await withServer({ keep: SETTINGS.keep }, async (server) => {
    const root = new Api(server.url, ROOT_TOKEN);
    console.error(`seeding ${SETTINGS.mrs} merge requests and one of ${SETTINGS.files} files…`);
    const seeded = await seed(root, server.dbFile);
    const c = seeded.counts;
    console.error(`seeded: API part ${seeded.apiSeconds.toFixed(1)} s, rows in ${seeded.dbSeconds.toFixed(1)} s`);
    const rssSeeded = rssMb(server.child.pid);
    const rows: MrRow[] = [];
    for (const s of scenarios(seeded)) {
      console.error(`${s.endpoint} as ${s.who}: ${SETTINGS.duration} s, ${SETTINGS.connections} connections…`);
      const row = await run(server.url, s);
      console.error(`  ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms (X-Total ${row.xTotal})`);
      rows.push(row);
    }
    const rssLoaded = rssMb(server.child.pid);
    const loadAfter = os.loadavg();
    const heading = [
      ...preamble('# Wharf merge requests benchmark'),
      `- **Client and server share the same ${cpus.length} cores**: autocannon runs in this process, Wharf in a child process.`,
      `- Data: one private project with ${SETTINGS.mrs + 1} merge requests (${c.opened} of the seeded ones open), ${LABELS} labels ` +
        `(${c.labelLinks} links), ${c.awards} award emoji; one merge request through the API whose branch changes ${SETTINGS.files} files ` +
        `(changes_count ${seeded.changes}). API part ${seeded.apiSeconds.toFixed(1)} s, rows bulk-inserted with knex in ${seeded.dbSeconds.toFixed(1)} s.`,
      `- Load: autocannon, ${SETTINGS.connections} connections, ${SETTINGS.duration} s per row after a ${SETTINGS.warmup} s warm-up, no pipelining.`,
      `- Server RSS: ${rssSeeded ?? '?'} MB after seeding, ${rssLoaded ?? '?'} MB after the runs. ` +
        `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)}.`,
      '',
    ].join('\n');
    publish('merge_requests.md', heading, table(rows, [{ head: 'X-Total', cell: (r) => r.xTotal }]), rows);
  });
}

if (isMain(import.meta.url)) runMain(main);
