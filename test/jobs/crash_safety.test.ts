// Jobs survive their process: Wharf in child processes on one folder, a job queued straight
// into the shared database (as another process of the installation would), the server killed
// with SIGKILL mid-job and started again — the job runs to success exactly once (its lease
// expires, the next process takes it); a SIGTERM waits for a running job; two processes on
// one database share the queue and take each job once.
import { expect } from 'chai';
import { ChildServer, tempDataDir, removeDataDir } from '../helpers/child_server.js';
import { openDb, type Db } from '../../src/store/db.js';
import { enqueueJob, findJob, type JobRow } from '../../src/store/job_queue.js';

const FAST = { WHARF_JOB_CONCURRENCY: '5', WHARF_JOB_LEASE_SECONDS: '2', WHARF_JOB_POLL_MS: '100' };

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('jobs across crashes and processes', function () {
  this.timeout(90_000);
  let dir: string;
  let servers: ChildServer[] = [];
  let db: Db | null = null;

  beforeEach(() => {
    dir = tempDataDir();
    servers = [];
  });
  afterEach(async () => {
    for (const s of servers) await s.kill();
    await db?.destroy();
    db = null;
    await removeDataDir(dir);
  });

  const start = async (env: Record<string, string> = {}) => {
    const s = await ChildServer.start(dir, { ...FAST, ...env });
    servers.push(s);
    db ??= openDb(s.dbTarget, 1);
    return s;
  };
  const job = async (id: number | null): Promise<JobRow> => (await findJob(db!, id!))!;
  const processed = async () => Number((await db!('job_stats').where({ name: 'processed' }).first()).value);
  const ownedBy = (row: JobRow, s: ChildServer) => row.locked_by?.split(':')[1] === String(s.pid);

  it('runs a job killed with its process (SIGKILL) again after a restart, to success exactly once', async () => {
    const first = await start();
    const before = await processed();
    const id = await enqueueJob(db!, 'noop', { sleepMs: 3_000, echo: 'done once' });
    const running = await until('the job to start', async () => {
      const row = await job(id);
      return row.state === 'running' && row;
    });
    expect(ownedBy(running, first)).to.equal(true);
    await first.kill();

    const queuedMeanwhile = await enqueueJob(db!, 'noop', { echo: 'queued while down' });
    expect((await job(id)).state).to.equal('running'); // nobody has recorded anything

    const second = await start();
    const done = await until('the job to succeed', async () => {
      const row = await job(id);
      return row.state === 'succeeded' && row;
    });
    expect(done).to.include({ attempts: 2, result: '"done once"' });
    expect(ownedBy(done, second)).to.equal(true);
    const other = await until('the queued job', async () => {
      const row = await job(queuedMeanwhile);
      return row.state === 'succeeded' && row;
    });
    expect(other).to.include({ attempts: 1, result: '"queued while down"' });
    expect(await processed()).to.equal(before + 2);
  });

  it('lets a running job finish on SIGTERM before the process exits', async () => {
    const s = await start();
    const id = await enqueueJob(db!, 'noop', { sleepMs: 1_500, echo: 'finished' });
    await until('the job to start', async () => (await job(id)).state === 'running');
    await s.stop();
    expect(await job(id)).to.include({ state: 'succeeded', attempts: 1, result: '"finished"' });
    expect(await db!('job_processes')).to.have.length(0); // its heartbeat row went with it
  });

  it('shares one queue between two processes on one database: each job is taken once', async () => {
    const a = await start();
    const b = await start();
    const before = await processed();
    const ids: number[] = [];
    await db!.transaction(async (tx) => {
      for (let i = 0; i < 150; i++) ids.push((await enqueueJob(tx, 'noop', { sleepMs: i % 3 === 0 ? 20 : 0 }))!);
    });
    await until('every job to succeed', async () => (await db!('jobs').whereIn('id', ids).where('state', 'succeeded').count({ n: '*' }).first())!.n == 150);
    const rows: JobRow[] = await db!('jobs').whereIn('id', ids);
    expect(rows.filter((r) => r.attempts !== 1)).to.deep.equal([]);
    expect(rows.every((r) => ownedBy(r, a) || ownedBy(r, b))).to.equal(true);
    expect(await processed()).to.equal(before + 150);
    const beats = (await db!('job_processes')).map((p: { pid: number }) => p.pid).sort();
    expect(beats).to.deep.equal([a.pid, b.pid].sort());
  });
});
