// The background-job metrics (GitLab 10.8 lib/api/sidekiq_metrics.rb), admins only, read from
// the real queue: backlog and latency per queue, the live processes that run jobs (a second
// Wharf process on the same database; not this one, which runs none) with the jobs they hold,
// their concurrency, and the processed / failed /
// enqueued counters moving as jobs run.
import os from 'node:os';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { ChildServer } from '../helpers/child_server.js';
import { enqueueJob } from '../../src/store/job_queue.js';
import { registerJob } from '../../src/jobs/registry.js';

registerJob('test_metrics_broken', {
  queue: 'web_hook',
  maxAttempts: 1,
  async handler() {
    throw new Error('unreachable host');
  },
});

const PATHS = ['/sidekiq/queue_metrics', '/sidekiq/process_metrics', '/sidekiq/job_stats', '/sidekiq/compound_metrics'];

async function until(what: string, probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('sidekiq metrics', function () {
  this.timeout(60_000);
  let s: TestServer;
  before(async () => {
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '0' }); // jobs run only when a test says so
  });
  after(async () => s.close());

  it('answers 401 to the signed-out and 403 to non-admins', async () => {
    const user = await s.createUser('metrics-user');
    for (const p of PATHS) {
      const anonymous = await s.get(p, { token: null });
      expect(anonymous.status, p).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const denied = await s.get(p, { token: user.token });
      expect(denied.status, p).to.equal(403);
      expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
    }
  });

  it('reports backlog, latency and counters from the queue, and moves as jobs run', async () => {
    const empty = await s.get('/sidekiq/queue_metrics');
    expect(empty.status).to.equal(200);
    expect(empty.headers.get('content-type')).to.equal('application/json');
    expect(Object.keys(empty.body.queues)).to.include.members([
      'default',
      'cronjob',
      'git_garbage_collect',
      'pipeline_processing',
      'project_export',
      'repository_import',
      'web_hook',
    ]);
    expect(Object.values(empty.body.queues).every((q) => JSON.stringify(q) === '{"backlog":0,"latency":0}')).to.equal(true);
    const start = (await s.get('/sidekiq/job_stats')).body.jobs;
    expect(start).to.have.all.keys('processed', 'failed', 'enqueued');
    expect(start.enqueued).to.equal(0);

    const ninetySecondsAgo = new Date(Date.now() - 90_000);
    for (let i = 0; i < 3; i++) await enqueueJob(s.db, 'noop', {}, { runAt: ninetySecondsAgo });
    await enqueueJob(s.db, 'noop', {}, { queue: 'project_export' });
    await enqueueJob(s.db, 'test_metrics_broken', {});
    await enqueueJob(s.db, 'noop', {}, { runAt: new Date(Date.now() + 3_600_000) }); // scheduled: not in a backlog

    const queues = (await s.get('/sidekiq/queue_metrics')).body.queues;
    expect(queues.default.backlog).to.equal(3);
    expect(queues.default.latency).to.be.within(90, 120);
    expect(queues.project_export).to.deep.equal({ backlog: 1, latency: 0 });
    expect(queues.web_hook.backlog).to.equal(1);
    expect((await s.get('/sidekiq/job_stats')).body.jobs).to.deep.equal({ ...start, enqueued: 5 });

    await s.drainJobs();
    const after = (await s.get('/sidekiq/job_stats')).body.jobs;
    expect(after).to.deep.equal({ processed: start.processed + 5, failed: start.failed + 1, enqueued: 0 });
    const drained = (await s.get('/sidekiq/queue_metrics')).body.queues;
    expect([drained.default, drained.project_export, drained.web_hook]).to.deep.equal([
      { backlog: 0, latency: 0 },
      { backlog: 0, latency: 0 },
      { backlog: 0, latency: 0 },
    ]);

    const compound = await s.get('/sidekiq/compound_metrics');
    expect(compound.status).to.equal(200);
    expect(Object.keys(compound.body)).to.deep.equal(['queues', 'processes', 'jobs']);
    expect(compound.body.jobs).to.deep.equal(after);
    expect(compound.body.queues).to.deep.equal(drained);
  });

  it('lists the processes that run jobs, each with its concurrency and the jobs it is running; not one that runs none', async () => {
    // This test server runs no background jobs by itself (WHARF_JOB_CONCURRENCY=0): Sidekiq would not list it.
    const mine = (await s.get('/sidekiq/process_metrics')).body.processes;
    expect(mine).to.deep.equal([]);

    // A second Wharf process on the same database and repositories.
    // The server's own database (a PostgreSQL one under WHARF_TEST_DB=postgres), never a SQLite path.
    const worker = await ChildServer.start(s.dir, { WHARF_DB: s.deps.config.db, WHARF_JOB_CONCURRENCY: '3', WHARF_HOOK_CONCURRENCY: '2', WHARF_JOB_POLL_MS: '100' });
    try {
      const id = await enqueueJob(s.db, 'noop', { sleepMs: 5_000 });
      await until('the worker to take the job', async () => (await s.db('jobs').where({ id }).first()).state === 'running');
      const both = (await s.get('/sidekiq/process_metrics')).body.processes;
      expect(both.map((p: { pid: number }) => p.pid)).to.deep.equal([worker.pid]);
      const other = both[0];
      expect(other).to.have.all.keys('hostname', 'pid', 'tag', 'started_at', 'queues', 'labels', 'concurrency', 'busy');
      // Its jobs' slots and its webhook deliveries' slots.
      expect(other).to.deep.include({ hostname: os.hostname(), tag: 'wharf', labels: [], concurrency: 5, busy: 1 });
      expect(other.queues).to.include.members(['default', 'cronjob', 'git_garbage_collect', 'project_cache', 'update_merge_requests', 'web_hook']);
      expect(other.started_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      await worker.stop(); // waits for its job, then leaves the process set
      expect((await s.db('jobs').where({ id }).first()).state).to.equal('succeeded');
      const left = (await s.get('/sidekiq/process_metrics')).body.processes;
      expect(left).to.deep.equal([]);
    } finally {
      await worker.kill();
    }
  });
});
