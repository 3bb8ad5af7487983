// The durable job queue's semantics (src/store/job_queue.ts, job_leases.ts, src/jobs/runner.ts):
// a job exists exactly when its transaction commits, runs once, is retried with Sidekiq's
// backoff, is recorded as failed when out of attempts, is taken again when its lease expires,
// and is taken by exactly one of several processes on one database. Runners are driven by
// hand here (the server's own runs nothing: WHARF_JOB_CONCURRENCY=0), with explicit clocks.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { enqueueJob, findJob, type JobRow } from '../../src/store/job_queue.js';
import { openDb } from '../../src/store/db.js';
import { registerJob, registerCron } from '../../src/jobs/registry.js';
import { JobRunner, type RunnerOptions } from '../../src/jobs/runner.js';
import { scheduleCrons } from '../../src/jobs/scheduler.js';
import { backoffMs } from '../../src/jobs/execute.js';
import type { Deps } from '../../src/deps.js';

const calls = new Map<string, number>();
const gates = new Map<string, Promise<void>>();
const count = (key: string) => calls.set(key, (calls.get(key) ?? 0) + 1).get(key)!;

registerJob<{ key: string; failTimes?: number }>('test_flaky', {
  queue: 'default',
  async handler(_deps, p) {
    const n = count(p.key);
    if (n <= (p.failTimes ?? 0)) throw new Error(`boom ${n}`);
    return { ran: n };
  },
});
registerJob<{ key: string }>('test_doomed', {
  queue: 'default',
  maxAttempts: 2,
  async handler(_deps, p) {
    count(p.key);
    throw new Error('always broken');
  },
});
registerJob<{ key: string }>('test_gated', {
  queue: 'project_export',
  maxAttempts: 3,
  async handler(_deps, p, ctx) {
    const n = count(p.key);
    await ctx.progress(`attempt ${n}`);
    if (n === 1) await gates.get(p.key);
    return n;
  },
});
registerJob<{ key: string }>('test_counted', {
  queue: 'default',
  async handler(_deps, p) {
    count(p.key);
  },
});
registerCron('test_daily', { kind: 'test_counted', everyMs: 86_400_000, payload: { key: 'cron' } });

const LEASE_MS = 30_000;
const options = (o: Partial<RunnerOptions> = {}): RunnerOptions => ({ concurrency: 0, deliveryConcurrency: 0, leaseMs: LEASE_MS, pollMs: 60_000, shutdownMs: 5_000, ...o });
const later = (ms: number) => new Date(Date.now() + ms);

describe('job queue', () => {
  let s: TestServer;
  let runner: JobRunner;
  before(async () => {
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '0' });
    runner = new JobRunner(s.deps, options());
  });
  after(async () => {
    await runner.stop();
    await s.close();
  });

  const job = async (id: number | null): Promise<JobRow> => (await findJob(s.db, id!))!;
  const stats = async () => Object.fromEntries((await s.db('job_stats')).map((r: { name: string; value: number }) => [r.name, Number(r.value)]));

  it('exists exactly when the transaction that queued it commits, and runs once', async () => {
    await s.db
      .transaction(async (tx) => {
        await enqueueJob(tx, 'test_flaky', { key: 'rolled-back' });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await s.db('jobs').where('payload', 'like', '%rolled-back%')).to.have.length(0);

    const before = await stats();
    const id = await s.db.transaction((tx) => enqueueJob(tx, 'test_flaky', { key: 'committed' }));
    expect(await job(id)).to.include({ state: 'queued', queue: 'default', attempts: 0 });
    await runner.drain();
    await runner.drain();
    expect(calls.get('committed')).to.equal(1);
    const row = await job(id);
    expect(row).to.include({ state: 'succeeded', attempts: 1, locked_by: runner.id });
    expect(JSON.parse(row.result!)).to.deep.equal({ ran: 1 });
    expect(await stats()).to.deep.equal({ processed: before.processed + 1, failed: before.failed });
  });

  it("retries a failed attempt after Sidekiq's backoff and records the error", async () => {
    const before = await stats();
    const id = await enqueueJob(s.db, 'test_flaky', { key: 'flaky', failTimes: 2 });
    const t0 = Date.now();
    await runner.drain();
    let row = await job(id);
    expect(row).to.include({ state: 'queued', attempts: 1 });
    expect(row.last_error).to.match(/^Error: boom 1/);
    const delay = Date.parse(row.run_at) - t0;
    expect(delay).to.be.within(15_000, 45_000 + 1_000);
    await runner.drain(); // not due yet: nothing runs
    expect(calls.get('flaky')).to.equal(1);

    await runner.drain({ at: new Date(Date.parse(row.run_at)) });
    row = await job(id);
    expect(row).to.include({ state: 'queued', attempts: 2 });
    expect(row.last_error).to.match(/^Error: boom 2/);
    await runner.drain({ at: new Date(Date.parse(row.run_at)) });
    row = await job(id);
    expect(row).to.include({ state: 'succeeded', attempts: 3 });
    expect(calls.get('flaky')).to.equal(3);
    expect(await stats()).to.deep.equal({ processed: before.processed + 3, failed: before.failed + 2 });
  });

  it('grows the backoff with each attempt (attempt⁴ + 15 s + jitter)', () => {
    expect(backoffMs(1, () => 0)).to.equal(15_000);
    expect(backoffMs(1, () => 0.999)).to.equal(44_000);
    expect(backoffMs(3, () => 0)).to.equal((16 + 15) * 1000);
    expect(backoffMs(10, () => 0.5)).to.equal((9 ** 4 + 15 + 15 * 10) * 1000);
  });

  it('records the failure for good when no attempt is left', async () => {
    const id = await enqueueJob(s.db, 'test_doomed', { key: 'doomed' });
    await runner.drain();
    await runner.drain({ at: later(60_000) });
    await runner.drain({ at: later(3_600_000) });
    const row = await job(id);
    expect(row).to.include({ state: 'failed', attempts: 2 });
    expect(row.finished_at).to.be.a('string');
    expect(row.last_error).to.match(/^Error: always broken/);
    expect(calls.get('doomed')).to.equal(2);
  });

  it('takes a job again when its lease expires (a dead process), and records one success', async () => {
    let open!: () => void;
    gates.set('leased', new Promise<void>((resolve) => (open = resolve)));
    const first = new JobRunner(s.deps, options());
    const second = new JobRunner(s.deps, options());
    const id = await enqueueJob(s.db, 'test_gated', { key: 'leased' });
    const stuck = first.drain();
    while ((await job(id)).state !== 'running') await new Promise((r) => setTimeout(r, 5));
    expect((await job(id)).locked_by).to.equal(first.id);

    await second.drain(); // the lease is live: nothing to take
    expect(calls.get('leased')).to.equal(1);
    await second.drain({ at: later(LEASE_MS + 1_000) });
    let row = await job(id);
    expect(row).to.include({ state: 'succeeded', attempts: 2, locked_by: second.id, progress: 'attempt 2' });

    open(); // the first process wakes up after losing its lease: its end is not recorded
    await stuck;
    row = await job(id);
    expect(row).to.include({ state: 'succeeded', attempts: 2, locked_by: second.id, result: '2' });
    expect(calls.get('leased')).to.equal(2);
  });

  it('fails a job whose lease expired with no attempt left', async () => {
    gates.set('poison', new Promise<void>(() => undefined)); // never ends: its process "dies"
    const id = await enqueueJob(s.db, 'test_gated', { key: 'poison' }, { maxAttempts: 1 });
    const dying = new JobRunner(s.deps, options());
    void dying.drain();
    while ((await job(id)).state !== 'running') await new Promise((r) => setTimeout(r, 5));
    await runner.drain({ at: later(LEASE_MS + 1_000) });
    const row = await job(id);
    expect(row.state).to.equal('failed');
    expect(row.last_error).to.match(/stopped while running it \(attempt 1\), and no attempt is left/);
    expect(calls.get('poison')).to.equal(1);
  });

  it('is taken by exactly one of two processes sharing the database', async function () {
    this.timeout(60_000);
    // Two more connection pools on the same file: two processes as far as SQLite is concerned.
    // (Two connections each: sqlite3 waits for the write lock on one of libuv's 4 threads, so
    // more connections than threads in one test process could starve the lock's holder.)
    // (On PostgreSQL: two more pools on the server's database.)
    const dbA = openDb(s.deps.config.db, 2);
    const otherDb = openDb(s.deps.config.db, 2);
    try {
      const a = new JobRunner({ ...s.deps, db: dbA } as Deps, options({ concurrency: 4 }));
      const b = new JobRunner({ ...s.deps, db: otherDb } as Deps, options({ concurrency: 4 }));
      const keys = Array.from({ length: 200 }, (_, i) => `shared-${i}`);
      await s.db.transaction(async (tx) => {
        for (const key of keys) await enqueueJob(tx, 'test_counted', { key });
      });
      await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
      expect(keys.filter((k) => calls.get(k) !== 1)).to.deep.equal([]);
      const rows: JobRow[] = await s.db('jobs').where('payload', 'like', '%shared-%');
      expect(rows).to.have.length(200);
      expect(rows.every((r) => r.state === 'succeeded' && r.attempts === 1)).to.equal(true);
      expect(new Set(rows.map((r) => r.locked_by))).to.satisfy((owners: Set<string>) => [...owners].every((o) => o === a.id || o === b.id));
    } finally {
      await dbA.destroy();
      await otherDb.destroy();
    }
  });

  it('holds a unique key until the job starts, finishes, or for good', async () => {
    const coalesced = await enqueueJob(s.db, 'test_counted', { key: 'u1' }, { uniqueKey: 'stats:1', uniqueUntil: 'started' });
    expect(coalesced).to.be.a('number');
    expect(await enqueueJob(s.db, 'test_counted', { key: 'u1' }, { uniqueKey: 'stats:1', uniqueUntil: 'started' })).to.equal(null);
    await runner.drain();
    expect(calls.get('u1')).to.equal(1);
    expect(await enqueueJob(s.db, 'test_counted', { key: 'u1' }, { uniqueKey: 'stats:1', uniqueUntil: 'started' })).to.be.a('number');
    await runner.drain();

    let open!: () => void;
    gates.set('u2', new Promise<void>((resolve) => (open = resolve)));
    const one = await enqueueJob(s.db, 'test_gated', { key: 'u2' }, { uniqueKey: 'gc:1' });
    const running = runner.drain();
    while ((await job(one)).state !== 'running') await new Promise((r) => setTimeout(r, 5));
    expect(await enqueueJob(s.db, 'test_gated', { key: 'u2' }, { uniqueKey: 'gc:1' })).to.equal(null);
    open();
    await running;
    expect(await enqueueJob(s.db, 'test_counted', { key: 'u3' }, { uniqueKey: 'gc:1' })).to.be.a('number');

    await enqueueJob(s.db, 'test_counted', { key: 'u4' }, { uniqueKey: 'day:1', uniqueUntil: 'pruned' });
    await runner.drain();
    expect(await enqueueJob(s.db, 'test_counted', { key: 'u4' }, { uniqueKey: 'day:1', uniqueUntil: 'pruned' })).to.equal(null);
  });

  it('queues a periodic job once per period, however many processes schedule it', async () => {
    const day = new Date('2030-01-02T10:00:00Z');
    expect(await scheduleCrons(s.db, day)).to.be.at.least(1);
    await scheduleCrons(s.db, new Date('2030-01-02T23:59:00Z'));
    const otherDb = openDb(s.deps.config.db, 1);
    try {
      await scheduleCrons(otherDb, day);
    } finally {
      await otherDb.destroy();
    }
    const runs = async () => (await s.db('jobs').where('unique_key', 'like', 'cron:test_daily:%')).map((r: JobRow) => r.unique_key);
    expect(await runs()).to.have.length(1);
    await runner.drain({ at: new Date('2030-01-02T23:59:30Z') });
    await scheduleCrons(s.db, new Date('2030-01-02T23:59:40Z')); // done, the period is still held
    expect(await runs()).to.have.length(1);
    await scheduleCrons(s.db, new Date('2030-01-03T00:00:10Z'));
    expect(await runs()).to.have.length(2);
  });

  it('performs a job at once, and a failed run is queued for retry', async () => {
    const ok = await runner.perform('test_flaky', { key: 'now' });
    expect(ok).to.deep.include({ state: 'succeeded', result: { ran: 1 } });
    expect(await job(ok.id)).to.include({ state: 'succeeded', attempts: 1 });
    const failed = await runner.perform('test_flaky', { key: 'now-fails', failTimes: 1 });
    expect(failed.state).to.equal('queued');
    expect(failed.error).to.match(/boom 1/);
    expect(await job(failed.id)).to.include({ state: 'queued', attempts: 1 });
  });

  it('on stop, waits for running jobs, then hands back those that outlast the bound', async () => {
    const quick = new JobRunner(s.deps, options({ concurrency: 2, shutdownMs: 5_000 }));
    await quick.start();
    const id = await enqueueJob(s.db, 'noop', { sleepMs: 300 });
    while ((await job(id)).state !== 'running') await new Promise((r) => setTimeout(r, 5));
    await quick.stop();
    expect(await job(id)).to.include({ state: 'succeeded', attempts: 1 });

    const slow = new JobRunner(s.deps, options({ concurrency: 2, shutdownMs: 100 }));
    await slow.start();
    const long = await enqueueJob(s.db, 'noop', { sleepMs: 30_000 });
    while ((await job(long)).state !== 'running') await new Promise((r) => setTimeout(r, 5));
    await slow.stop();
    const row = await job(long);
    expect(row).to.include({ state: 'queued', attempts: 0, locked_by: null });
    expect(Date.parse(row.run_at)).to.be.at.most(Date.now());
    expect(await s.db('job_processes').where({ id: slow.id })).to.have.length(0);
    await s.db('jobs').where({ id: long }).delete();
  });
});
