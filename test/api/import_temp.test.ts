// Project import's temp folders (`<repos>/@wharf/tmp/import.*`, where an archive is unpacked):
// none is left once an import ended, finished or failed — a refused archive of more than
// 10,000 files included, whose unpacking is still writing when it is refused — and at start
// the folders of imports no longer running are removed (a process killed mid-import), while
// the folder of an import another live process runs is kept.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';
import { importAndWait, tarGz, type Entry } from '../helpers/archives.js';
import { freePort } from '../helpers/free_port.js';
import { startServer } from '../../src/server.js';
import { enqueueJob } from '../../src/store/job_queue.js';
import { PROJECT_IMPORT_JOB } from '../../src/services/import_export/project_import.js';

/** Long enough for a write still under way to land, were one left running. */
const SETTLE_MS = 500;

describe('project import temp folders', function () {
  this.timeout(120_000);
  let s: TestServer;
  let exported: Buffer;

  const leftovers = () => fs.readdirSync(s.deps.repos.tmpDir).filter((n) => n.startsWith('import.'));
  const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));

  before(async () => {
    s = await bootServer();
    const project = await createProject(s, ROOT_TOKEN, { name: 'exported' });
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hello\n' }], { token: ROOT_TOKEN });
    expect((await s.post(`/projects/${project.id}/export`)).status).to.equal(202);
    await s.drainJobs();
    const res = await fetch(`${s.url}/api/v4/projects/${project.id}/export/download`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } });
    expect(res.status).to.equal(200);
    exported = Buffer.from(await res.arrayBuffer());
  });
  after(async () => s?.close());

  it('leaves nothing of a finished import', async () => {
    const st = await importAndWait(s, ROOT_TOKEN, exported, { path: 'imported' });
    expect(st.import_status, JSON.stringify(st)).to.equal('finished');
    await settle();
    expect(leftovers()).to.deep.equal([]);
  });

  it('leaves nothing of failed imports: more than 10,000 files, a wrong VERSION, no project.json', async () => {
    const many: Entry[] = [{ name: 'VERSION', body: '0.2.3' }];
    for (let i = 0; i < 10_050; i++) many.push({ name: `d${i % 50}/f${i}`, body: 'x' });
    const cases: [Buffer, string][] = [
      [tarGz(many), 'The archive holds more than 10000 files'],
      [
        tarGz([
          { name: 'VERSION', body: '9.9.9' },
          { name: 'project.json', body: '{}' },
        ]),
        'Import version mismatch: Required 0.2.3 but was 9.9.9',
      ],
      [tarGz([{ name: 'VERSION', body: '0.2.3' }]), 'The archive has no project.json'],
    ];
    for (const [i, [archive, error]] of cases.entries()) {
      const st = await importAndWait(s, ROOT_TOKEN, archive, { path: `failed-${i}` });
      expect(st).to.include({ import_status: 'failed', import_error: error });
      await settle();
      expect(leftovers(), error).to.deep.equal([]);
    }
  });

  it('removes at start the folders of imports no longer running, and keeps those of a live one', async () => {
    const db = s.deps.db;
    const jobOf = async (state: string, lockedUntil: string | null) => {
      await enqueueJob(db, PROJECT_IMPORT_JOB, { projectId: 0, userId: 0 }, { queue: 'repository_import', maxAttempts: 1 });
      const row = await db('jobs').where({ kind: PROJECT_IMPORT_JOB }).orderBy('id', 'desc').first('id');
      await db('jobs')
        .where({ id: row.id })
        .update({ state, locked_by: lockedUntil ? 'another-process' : null, locked_until: lockedUntil });
      return row.id as number;
    };
    const running = await jobOf('running', new Date(Date.now() + 3600_000).toISOString());
    const expired = await jobOf('running', new Date(Date.now() - 3600_000).toISOString());
    const failed = await jobOf('failed', null);
    const folders = {
      live: `import.job-${running}.aaaa`,
      expired: `import.job-${expired}.bbbb`,
      failed: `import.job-${failed}.cccc`,
      unknown: 'import.job-999999.dddd',
      oldUnnamed: 'import.12345.0123456789abcdef',
      freshUnnamed: 'import.12346.fedcba9876543210',
    };
    for (const name of Object.values(folders)) {
      const dir = path.join(s.deps.repos.tmpDir, name, 'archive', 'tree');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'project.json'), '{}');
    }
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(path.join(s.deps.repos.tmpDir, folders.oldUnnamed), hourAgo, hourAgo);
    const other = await startServer({ ...s.deps.config, port: await freePort() }, pino({ level: 'silent' }));
    await other.close();
    expect(leftovers().sort()).to.deep.equal([folders.live, folders.freshUnnamed].sort());
  });
});
