// Benchmark of the projects API: boots Wharf in a child process on a temporary folder, seeds
// users, groups and projects through the API, then loads a few read endpoints with autocannon.
// Run with `make bench` (node dist/bench/projects.js). See bench/README.md.
//
// Settings (environment): BENCH_PROJECTS (1000), BENCH_DURATION seconds per run (10),
// BENCH_CONNECTIONS (10), BENCH_WARMUP seconds before each run (1), BENCH_SEED_CONCURRENCY (4).
import os from 'node:os';
import { Api, BENCH_DB, intEnv, loadSettings, measure, pool, preamble, publish, rssMb, ROOT_TOKEN, table, withServer, runMain, type Row, type Scenario } from './harness.js';

const SETTINGS = {
  projects: intEnv('BENCH_PROJECTS', 1000),
  ...loadSettings(10),
  seedConcurrency: intEnv('BENCH_SEED_CONCURRENCY', 4),
};
const GROUPS = 4;
const MEMBER_GROUPS = 2; // the non-admin user is a developer in the first two groups
const OTHER_USERS = 3;

// ---------------------------------------------------------------------------------------------
// Seeding through the API, as root.

interface Seed {
  memberToken: string;
  memberUsername: string;
  /** Projects the member can read (in the member's groups); used for GET /projects/:id. */
  sampleIds: number[];
  seconds: number;
}

function visibilityOf(i: number): string {
  if (i % 10 === 0) return 'public';
  if (i % 10 === 1) return 'internal';
  return 'private';
}

async function seed(root: Api): Promise<Seed> {
  const started = Date.now();
  const users: { id: number; username: string }[] = [];
  for (let u = 0; u <= OTHER_USERS; u++) {
    const username = u === 0 ? 'member' : `user${u}`;
    users.push({ id: await root.createUser(username, username), username });
  }
  const member = users[0];
  const memberToken = await root.impersonationToken(member.id);

  const groups: number[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const { body } = await root.call('POST', '/groups', { name: `Group ${g}`, path: `group-${g}`, visibility: 'public' });
    groups.push(body.id);
    if (g < MEMBER_GROUPS) await root.call('POST', `/groups/${body.id}/members`, { user_id: member.id, access_level: 30 });
    const other = users[1 + (g % OTHER_USERS)];
    await root.call('POST', `/groups/${body.id}/members`, { user_id: other.id, access_level: 20 });
  }

  // Nine projects in ten go to the groups (round robin), one in ten to root's own namespace.
  const memberIds: number[] = [];
  await pool(SETTINGS.projects, SETTINGS.seedConcurrency, async (i) => {
    const params: Record<string, unknown> = { name: `project-${String(i).padStart(4, '0')}`, visibility: visibilityOf(i), description: `Seeded project ${i}` };
    const g = i % 10 === 9 ? -1 : i % GROUPS;
    if (g >= 0) params.namespace_id = groups[g];
    const { body } = await root.call('POST', '/projects', params);
    if (g >= 0 && g < MEMBER_GROUPS) memberIds.push(body.id);
  });
  memberIds.sort((a, b) => a - b);
  const step = Math.max(1, Math.floor(memberIds.length / 20));
  const sampleIds = memberIds.filter((_, i) => i % step === 0).slice(0, 20);
  return { memberToken, memberUsername: member.username, sampleIds, seconds: (Date.now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Load.

async function visibleTotal(api: Api): Promise<string> {
  const { headers } = await api.call('GET', '/projects?per_page=1');
  return headers.get('x-total') ?? '?';
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  const loadBefore = os.loadavg();
  await withServer({}, async (server) => {
    const root = new Api(server.url, ROOT_TOKEN);
    const rssIdle = rssMb(server.child.pid);
    console.error(`seeding ${SETTINGS.projects} projects in ${GROUPS} groups (${SETTINGS.seedConcurrency} requests in flight)…`);
    const seeded = await seed(root);
    const member = new Api(server.url, seeded.memberToken);
    const rootSees = await visibleTotal(root);
    const memberSees = await visibleTotal(member);
    console.error(`seeded in ${seeded.seconds.toFixed(1)} s (${(SETTINGS.projects / seeded.seconds).toFixed(0)} projects/s); root sees ${rootSees}, member sees ${memberSees}`);
    const rssSeeded = rssMb(server.child.pid);

    const byId = seeded.sampleIds.map((id) => `/api/v4/projects/${id}`);
    const identities = [
      { who: 'root (admin)', token: ROOT_TOKEN },
      { who: `${seeded.memberUsername} (non-admin)`, token: seeded.memberToken },
    ];
    const scenarios: Scenario[] = [];
    for (const id of identities) {
      scenarios.push({ endpoint: 'GET /api/v4/projects/:id', ...id, paths: byId });
      scenarios.push({ endpoint: 'GET /api/v4/projects?per_page=20', ...id, paths: ['/api/v4/projects?per_page=20'] });
      scenarios.push({ endpoint: 'GET /api/v4/projects?per_page=100', ...id, paths: ['/api/v4/projects?per_page=100'] });
    }

    const rows: Row[] = [];
    for (const s of scenarios) {
      console.error(`${s.endpoint} as ${s.who}: ${SETTINGS.duration} s, ${SETTINGS.connections} connections…`);
      rows.push(await measure(server.url, s, SETTINGS));
    }
    const rssLoaded = rssMb(server.child.pid);
    const loadAfter = os.loadavg();

    const heading = [
      ...preamble('# Wharf projects API benchmark'),
      `- **Client and server share the same ${cpus.length} cores**: autocannon runs in this process, Wharf in a child process; ` +
        'the figures are a lower bound of what the server does alone.',
      `- Data: ${SETTINGS.projects} projects (1 in 10 public, 1 in 10 internal, the rest private) in ${GROUPS} groups and root's namespace; ` +
        `${OTHER_USERS + 1} users. Root sees ${rootSees} projects, the non-admin member (developer in ${MEMBER_GROUPS} groups) sees ${memberSees}. ` +
        `Seeding through the API took ${seeded.seconds.toFixed(1)} s.`,
      `- Load: autocannon, ${SETTINGS.connections} connections, ${SETTINGS.duration} s per row after a ${SETTINGS.warmup} s warm-up, no pipelining; ` +
        `\`/projects/:id\` cycles through ${byId.length} projects the member can read. Database (${BENCH_DB}) on ${os.tmpdir()}.`,
      `- Server RSS: ${rssIdle ?? '?'} MB after start, ${rssSeeded ?? '?'} MB after seeding, ${rssLoaded ?? '?'} MB after the runs.`,
      `- Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)}; ` +
        'a value well above 1 before the start means something else was using the cores and the figures are low.',
      '',
    ].join('\n');
    publish('projects.md', heading, table(rows), rows);
  });
}

runMain(main);
