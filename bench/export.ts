// Project export and import: a project with BENCH_ISSUES (10,000) issues (each with a note and
// a label) and BENCH_COMMITS (3,000) commits, exported (POST /projects/:id/export until
// `finished`), then imported under a new path (POST /projects/import until `finished`); the
// statuses seen while polling every 100 ms are printed, to show progress is visible.
//
//   npx tsc -p tsconfig.json && node dist/bench/export.js
//   BENCH_ISSUES=2000 BENCH_COMMITS=500 node dist/bench/export.js
//
// The server is the test helper's (a temporary SQLite file, jobs run by one worker polling
// every 50 ms); the data is seeded straight into the tables and with `git fast-import`.
import { execFileSync } from 'node:child_process';
import { bootServer } from '../test/helpers/server.js';
import { importArchive } from '../test/helpers/archives.js';
import { intEnv } from './harness.js';
import { insertReturningId, returnedId } from '../src/store/ids.js';

const ISSUES = intEnv('BENCH_ISSUES', 10_000);
const COMMITS = intEnv('BENCH_COMMITS', 3_000);

function fastImport(gitdir: string, commits: number): void {
  let script = '';
  for (let i = 1; i <= commits; i++) {
    const body = `line ${i}\n`;
    const msg = `commit ${i}\n`;
    script += `commit refs/heads/master\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`;
    script += `M 100644 inline f${i % 200}.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`;
  }
  execFileSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { input: script, maxBuffer: 64 * 1024 * 1024 });
}

async function main(): Promise<void> {
  const s = await bootServer({ WHARF_JOB_CONCURRENCY: '1', WHARF_JOB_POLL_MS: '50', WHARF_MAX_BODY_BYTES: String(1024 ** 3) });
  try {
    const owner = await s.createUser('bench-owner');
    const p = (await s.post('/projects', { token: owner.token, json: { name: 'big' } })).body;
    fastImport(s.deps.repos.pathFor(p.path_with_namespace), COMMITS);
    await s.db('projects').where({ id: p.id }).update({ default_branch: 'master' });
    const stamp = new Date().toISOString();
    const labelId = await insertReturningId(s.db, 'labels', { project_id: p.id, title: 'bench', color: '#336699', created_at: stamp, updated_at: stamp });
    for (let start = 1; start <= ISSUES; start += 500) {
      const rows = [];
      for (let iid = start; iid < Math.min(start + 500, ISSUES + 1); iid++)
        rows.push({
          project_id: p.id,
          iid,
          title: `issue ${iid}`,
          description: 'text '.repeat(20),
          state: iid % 3 ? 'opened' : 'closed',
          author_id: owner.user.id,
          confidential: false,
          user_notes_count: 1,
          time_estimate: 0,
          total_time_spent: 0,
          created_at: stamp,
          updated_at: stamp,
        });
      const ids = (await s.db('issues').insert(rows).returning('id')).map(returnedId);
      await s.db('notes').insert(
        ids.map((id: number) => ({
          project_id: p.id,
          noteable_type: 'Issue',
          noteable_id: id,
          author_id: owner.user.id,
          body: 'a note',
          system: false,
          created_at: stamp,
          updated_at: stamp,
        })),
      );
      await s.db('label_links').insert(ids.map((id: number) => ({ target_type: 'issue', target_id: id, label_id: labelId })));
    }
    await s.db('internal_ids').insert({ project_id: p.id, usage: 'issues', last_value: ISSUES });

    const poll = async (url: string, field: string, done: string[]) => {
      const seen: string[] = [];
      for (;;) {
        const st = (await s.get(url, { token: owner.token })).body[field];
        if (seen[seen.length - 1] !== st) seen.push(st);
        if (done.includes(st)) return seen;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    let t = performance.now();
    await s.post(`/projects/${p.id}/export`, { token: owner.token });
    const exportSeen = await poll(`/projects/${p.id}/export`, 'export_status', ['finished']);
    const exportMs = performance.now() - t;
    const res = await fetch(new URL(`/api/v4/projects/${p.id}/export/download`, s.url), { headers: { 'PRIVATE-TOKEN': owner.token } });
    const archive = Buffer.from(await res.arrayBuffer());

    t = performance.now();
    const imp = await importArchive(s, owner.token, archive, { path: 'big-copy' });
    if (imp.status !== 201) throw new Error(JSON.stringify(imp.body));
    const importSeen = await poll(`/projects/${imp.body.id}/import`, 'import_status', ['finished', 'failed']);
    const importMs = performance.now() - t;
    const count = await s.db('issues').where({ project_id: imp.body.id }).count({ n: '*' }).first();
    console.log(`| issues | commits | archive | export | import | statuses seen (export; import) | issues imported |`);
    console.log(`|---|---|---|---|---|---|---|`);
    console.log(
      `| ${ISSUES} | ${COMMITS} | ${(archive.length / 1024 / 1024).toFixed(1)} MiB | ${(exportMs / 1000).toFixed(1)} s | ${(importMs / 1000).toFixed(1)} s | ${exportSeen.join('→')}; ${importSeen.join('→')} | ${count?.n} |`,
    );
  } finally {
    await s.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
