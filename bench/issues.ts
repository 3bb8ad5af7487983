// Benchmark of the issue lists at 100,000 issues: boots Wharf in a child process on a temporary
// folder, creates users, memberships, labels and milestones through the API, bulk-inserts the
// issues (with assignees, label links and award emoji) straight into the SQLite file with knex
// (the API would take an hour; the rows are what the services would write), then loads
// `GET /projects/:id/issues` with and without filters and `GET /issues` with autocannon.
// Run with `make bench` (node dist/bench/issues.js). See bench/README.md.
//
// Settings (environment): BENCH_ISSUES (100000), BENCH_DURATION seconds per run (5),
// BENCH_CONNECTIONS (10; each row is also run with 1 connection: the latency of a request
// alone), BENCH_WARMUP seconds before each run (1), BENCH_ONLY (a regular
// expression: only the rows whose "endpoint as who" matches), BENCH_NODE_ARGS (extra node
// options for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), BENCH_KEEP=1 (keep the
// temporary folder, to look at the database afterwards).
import os from 'node:os';
import { openDb, type Db } from '../src/store/db.js';
import {
  afterBulkInsert,
  Api,
  BENCH_DB,
  intEnv,
  load,
  loadSettings,
  measure,
  pool,
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
  issues: intEnv('BENCH_ISSUES', 100_000),
  ...loadSettings(5),
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== ''),
  keep: process.env.BENCH_KEEP === '1',
};
const PEOPLE = 50; // authors and assignees; the first two are the reporter and the guest
const LABELS = 20;
const MILESTONES = 10;
const WORDS = [
  'crash',
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
  'avatar',
  'search',
  'export',
  'import',
  'branch',
  'merge',
  'commit',
  'pipeline',
  'runner',
  'token',
  'email',
  'webhook',
  'wiki',
  'label',
  'milestone',
  'sidebar',
  'layout',
  'mobile',
  'diff',
  'comment',
  'emoji',
  'badge',
  'group',
  'project',
  'permission',
  'admin',
  'settings',
  'backup',
  'restore',
  'deploy',
  'release',
  'tag',
  'archive',
  'mirror',
  'fork',
  'snippet',
  'issue',
  'board',
  'graph',
];

// ---------------------------------------------------------------------------------------------
// Seeding: the small things through the API as root, the issues straight into the database.

interface Seed {
  projectId: number;
  reporter: Identity;
  guest: Identity;
  developer: Identity;
  assigneeId: number;
  labels: string[];
  milestones: string[];
  counts: { confidential: number; closed: number; assignees: number; labelLinks: number; awards: number };
  apiSeconds: number;
  dbSeconds: number;
}

async function seed(root: Api, dbFile: string): Promise<Seed> {
  const started = Date.now();
  const { body: rootUser } = await root.call('GET', '/user');
  // People: [0] reporter, [1] guest, [2..] developers. All author issues and are assigned some.
  const people: Identity[] = new Array(PEOPLE);
  await pool(PEOPLE, 4, async (i) => {
    const username = i === 0 ? 'reporter' : i === 1 ? 'guest' : `dev${String(i).padStart(2, '0')}`;
    people[i] = { id: await root.createUser(username, `Bench ${username}`), username, token: '' };
  });
  for (const i of [0, 1, 2]) {
    people[i].token = await root.impersonationToken(people[i].id);
  }
  const { body: project } = await root.call('POST', '/projects', { name: 'big-tracker', visibility: 'private' });
  await pool(PEOPLE, 4, async (i) => {
    const access = i === 0 ? 20 : i === 1 ? 10 : 30;
    await root.call('POST', `/projects/${project.id}/members`, { user_id: people[i].id, access_level: access });
  });
  const labels: { id: number; title: string }[] = [];
  for (let l = 0; l < LABELS; l++) {
    const { body } = await root.call('POST', `/projects/${project.id}/labels`, { name: `label-${String(l).padStart(2, '0')}`, color: '#428bca' });
    labels.push({ id: body.id, title: body.name });
  }
  const milestones: { id: number; title: string }[] = [];
  for (let m = 0; m < MILESTONES; m++) {
    const { body } = await root.call('POST', `/projects/${project.id}/milestones`, { title: `Release ${m + 1}.0`, due_date: `2027-${String(m + 1).padStart(2, '0')}-15` });
    milestones.push({ id: body.id, title: body.title });
  }
  const apiSeconds = (Date.now() - started) / 1000;

  const dbStarted = Date.now();
  const db = openDb(dbFile, 1);
  try {
    const counts = await insertIssues(db, project.id, rootUser.id, people, labels, milestones);
    await afterBulkInsert(db, ['issues']);
    return {
      projectId: project.id,
      reporter: people[0],
      guest: people[1],
      developer: people[2],
      assigneeId: people[7].id,
      labels: labels.map((l) => l.title),
      milestones: milestones.map((m) => m.title),
      counts,
      apiSeconds,
      dbSeconds: (Date.now() - dbStarted) / 1000,
    };
  } finally {
    await db.destroy();
  }
}

const CHUNK = 500;

/** Bulk-inserts `total` issues (fixed seed) with assignees, label links and award emoji. */
export async function insertIssues(
  db: Db,
  projectId: number,
  rootId: number,
  people: Identity[],
  labels: { id: number }[],
  milestones: { id: number }[],
  total = SETTINGS.issues,
): Promise<Seed['counts']> {
  const rand = prng(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const sentence = (min: number, max: number) => {
    const n = min + Math.floor(rand() * (max - min + 1));
    return Array.from({ length: n }, () => pick(WORDS)).join(' ');
  };
  const start = Date.parse('2024-11-22T00:00:00.000Z');
  const span = 2 * 365 * 24 * 3600 * 1000; // two years of history
  const counts = { confidential: 0, closed: 0, assignees: 0, labelLinks: 0, awards: 0 };
  // Voters: root, the reporter and the guest award thumbsup to one issue in ten each (the
  // my_reaction_emoji runs); everyone else gives 0-3 thumbsup/thumbsdown for the vote counts.
  const benchVoters = [rootId, people[0].id, people[1].id];
  const [{ maxId }] = await db('issues').max({ maxId: 'id' });
  let nextId = Number(maxId ?? 0) + 1;

  for (let from = 0; from < total; from += 10 * CHUNK) {
    const issues: Record<string, unknown>[] = [];
    const assignees: Record<string, unknown>[] = [];
    const links: Record<string, unknown>[] = [];
    const awards: Record<string, unknown>[] = [];
    for (let n = from; n < Math.min(from + 10 * CHUNK, total); n++) {
      const id = nextId++;
      const created = start + Math.floor((n / total) * span);
      const updated = created + Math.floor(rand() * (start + span - created));
      const createdAt = new Date(created).toISOString();
      const updatedAt = new Date(updated).toISOString();
      const closed = rand() < 0.3;
      const confidential = rand() < 0.05;
      const author = pick(people);
      counts.closed += closed ? 1 : 0;
      counts.confidential += confidential ? 1 : 0;
      issues.push({
        id,
        project_id: projectId,
        iid: n + 1,
        title: sentence(3, 6),
        description: rand() < 0.8 ? sentence(10, 40) : null,
        state: closed ? 'closed' : 'opened',
        author_id: author.id,
        confidential,
        discussion_locked: null,
        due_date: rand() < 0.1 ? createdAt.slice(0, 10) : null,
        milestone_id: rand() < 0.8 ? pick(milestones).id : null,
        closed_at: closed ? updatedAt : null,
        closed_by_id: closed ? pick(people).id : null,
        time_estimate: rand() < 0.2 ? 3600 * (1 + Math.floor(rand() * 16)) : 0,
        total_time_spent: rand() < 0.1 ? 1800 * (1 + Math.floor(rand() * 10)) : 0,
        user_notes_count: Math.floor(rand() * 6),
        created_at: createdAt,
        updated_at: updatedAt,
      });
      // CE keeps one assignee; seven issues in ten have one.
      if (rand() < 0.7) {
        assignees.push({ issue_id: id, user_id: pick(people).id });
        counts.assignees++;
      }
      const labelCount = Math.floor(rand() * 4);
      const chosen = new Set<number>();
      while (chosen.size < labelCount) chosen.add(pick(labels).id);
      for (const labelId of chosen) links.push({ target_type: 'issue', target_id: id, label_id: labelId });
      counts.labelLinks += chosen.size;
      const voters = new Map<number, string>();
      for (const v of benchVoters) if (rand() < 0.1) voters.set(v, 'thumbsup');
      const votes = Math.floor(rand() * 4);
      for (let k = 0; k < votes; k++) voters.set(pick(people).id, rand() < 0.75 ? 'thumbsup' : 'thumbsdown');
      voters.delete(author.id); // GitLab refuses votes on one's own issue
      for (const [userId, name] of voters) {
        awards.push({ awardable_type: 'Issue', awardable_id: id, user_id: userId, name, created_at: updatedAt, updated_at: updatedAt });
      }
      counts.awards += voters.size;
    }
    await db.transaction(async (tx) => {
      for (const [table, rows] of [
        ['issues', issues],
        ['issue_assignees', assignees],
        ['label_links', links],
        ['award_emoji', awards],
      ] as const) {
        for (let i = 0; i < rows.length; i += CHUNK) await tx(table).insert(rows.slice(i, i + CHUNK));
      }
    });
  }
  // The next issue created through the API continues after the seeded iids.
  await db.transaction(async (tx) => {
    await tx('internal_ids').where({ project_id: projectId, usage: 'issues' }).delete();
    await tx('internal_ids').insert({ project_id: projectId, usage: 'issues', last_value: total });
  });
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Load.

interface IssueRow extends Row {
  xTotal: string;
  /** With one connection: one request at a time. */
  alone: { rps: number; p50: number; p99: number };
}

async function run(url: string, s: Scenario): Promise<IssueRow> {
  const xTotal = await probe(url, s);
  const row = await measure(url, s, SETTINGS);
  const one = await load(url, s, SETTINGS.duration, 1);
  return { ...row, xTotal, alone: { rps: one.requests.total / one.duration, p50: one.latency.p50, p99: one.latency.p99 } };
}

function scenarios(seeded: Seed): Scenario[] {
  const list = `/api/v4/projects/${seeded.projectId}/issues?per_page=100`;
  const filters: [string, string][] = [
    ['', ''],
    [`labels=${seeded.labels[3]},${seeded.labels[11]}`, `&labels=${seeded.labels[3]},${seeded.labels[11]}`],
    [`milestone=${seeded.milestones[4]}`, `&milestone=${encodeURIComponent(seeded.milestones[4])}`],
    ['state=opened', '&state=opened'],
    ['assignee_id=N', `&assignee_id=${seeded.assigneeId}`],
    ['search=crash', '&search=crash'],
    ['search="crash parser login" (a rare phrase)', '&search=%22crash%20parser%20login%22'],
    ['order_by=updated_at&sort=asc', '&order_by=updated_at&sort=asc'],
    ['my_reaction_emoji=thumbsup', '&my_reaction_emoji=thumbsup'],
  ];
  const identities = [
    { who: 'root (admin)', token: ROOT_TOKEN },
    { who: `${seeded.reporter.username} (reporter)`, token: seeded.reporter.token },
    { who: `${seeded.guest.username} (guest)`, token: seeded.guest.token },
  ];
  const out: Scenario[] = [];
  for (const id of identities) {
    for (const [label, query] of filters) {
      out.push({ endpoint: `GET /projects/:id/issues?per_page=100${label ? `&${label}` : ''}`, ...id, paths: [`${list}${query}`] });
    }
  }
  for (const id of [
    { who: `${seeded.developer.username} (developer)`, token: seeded.developer.token },
    { who: `${seeded.guest.username} (guest)`, token: seeded.guest.token },
  ]) {
    out.push({ endpoint: 'GET /issues?per_page=100&scope=all', ...id, paths: ['/api/v4/issues?per_page=100&scope=all'] });
    out.push({ endpoint: 'GET /issues?per_page=100 (created-by-me)', ...id, paths: ['/api/v4/issues?per_page=100'] });
  }
  return selected(out);
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  const loadBefore = os.loadavg();
  await withServer({ nodeArgs: SETTINGS.nodeArgs, keep: SETTINGS.keep }, async (server) => {
    const root = new Api(server.url, ROOT_TOKEN);
    const rssIdle = rssMb(server.child.pid);
    console.error(`seeding ${SETTINGS.issues} issues…`);
    const seeded = await seed(root, server.dbFile);
    const c = seeded.counts;
    console.error(
      `seeded: API part ${seeded.apiSeconds.toFixed(1)} s, ${SETTINGS.issues} issues in ${seeded.dbSeconds.toFixed(1)} s ` +
        `(${c.confidential} confidential, ${c.closed} closed, ${c.assignees} assignments, ${c.labelLinks} label links, ${c.awards} award emoji)`,
    );
    const rssSeeded = rssMb(server.child.pid);

    const rows: IssueRow[] = [];
    for (const s of scenarios(seeded)) {
      console.error(`${s.endpoint} as ${s.who}: ${SETTINGS.duration} s, ${SETTINGS.connections} connections…`);
      const row = await run(server.url, s);
      console.error(`  ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms; alone p50 ${row.alone.p50} ms, p99 ${row.alone.p99} ms (X-Total ${row.xTotal})`);
      rows.push(row);
    }
    const rssLoaded = rssMb(server.child.pid);
    const loadAfter = os.loadavg();

    const heading = [
      ...preamble('# Wharf issue lists benchmark'),
      `- **Client and server share the same ${cpus.length} cores**: autocannon runs in this process, Wharf in a child process; ` +
        'the figures are a lower bound of what the server does alone.',
      `- Data: one private project with ${SETTINGS.issues} issues (${c.closed} closed, ${c.confidential} confidential) by ${PEOPLE} authors, ` +
        `${c.assignees} assignments, ${LABELS} labels (${c.labelLinks} links, 0–3 per issue), ${MILESTONES} milestones (4 in 5 issues have one), ` +
        `${c.awards} award emoji (root, the reporter and the guest each thumbsup one issue in ten). ` +
        `Users, members, labels and milestones through the API (${seeded.apiSeconds.toFixed(1)} s); issues bulk-inserted with knex (${seeded.dbSeconds.toFixed(1)} s).`,
      `- Who: root is an admin; the reporter and the guest are project members (the guest sees confidential issues only where author or assignee); ` +
        'the developer and the guest for `/issues`.',
      `- Load: autocannon, ${SETTINGS.connections} connections, ${SETTINGS.duration} s per row after a ${SETTINGS.warmup} s warm-up, no pipelining; ` +
        `then ${SETTINGS.duration} s with 1 connection (the "1 conn" columns: the latency of a request on an otherwise idle server). ` +
        `Database (${BENCH_DB}) on ${os.tmpdir()}.`,
      `- Server RSS: ${rssIdle ?? '?'} MB after start, ${rssSeeded ?? '?'} MB after seeding, ${rssLoaded ?? '?'} MB after the runs.`,
      `- Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)}; ` +
        'a value well above 1 before the start means something else was using the cores and the figures are low.',
      '',
    ].join('\n');
    const columns = table(
      rows,
      [{ head: 'X-Total', cell: (r) => r.xTotal }],
      [
        { head: '1 conn: req/s', cell: (r) => r.alone.rps.toFixed(0) },
        { head: 'p50 ms', cell: (r) => r.alone.p50 },
        { head: 'p99 ms', cell: (r) => r.alone.p99 },
      ],
    );
    publish('issues.md', heading, columns, rows);
  });
}

if (isMain(import.meta.url)) runMain(main);
