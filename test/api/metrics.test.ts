// GET /-/metrics (GitLab 10.8's MetricsController with prometheus_metrics_enabled): the text
// exposition parses, moves as requests, git operations and jobs happen, labels requests by
// route template, and answers 404 outside WHARF_MONITORING_WHITELIST or while the setting
// is off.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { parsePrometheus, type Family } from '../helpers/prometheus.js';
import { commit, gitOk, repoUrl, tempDir, workRepo } from '../transport/git_client.js';
import { registerQueueMetrics } from '../../src/services/metrics/metrics.js';
import { queueMetrics } from '../../src/finders/job_metrics.js';
import { enqueueJob } from '../../src/store/job_queue.js';
import { IpWhitelist } from '../../src/http/ip_whitelist.js';
import { loadConfig } from '../../src/config.js';
import http from 'node:http';
import { CHILD_ROOT_TOKEN, ChildServer, removeDataDir, tempDataDir } from '../helpers/child_server.js';

async function scrape(s: TestServer): Promise<Family[]> {
  const r = await fetch(`${s.url}/-/metrics`);
  expect(r.status).to.equal(200);
  expect(r.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
  const families = await parsePrometheus(await r.text());
  for (const f of families) {
    expect(f.documentation, f.name).to.not.equal('');
    expect(f.type, f.name).to.not.equal('unknown');
  }
  return families;
}

function family(families: Family[], name: string): Family {
  const f = families.find((x) => x.name === name);
  expect(f, name).to.not.equal(undefined);
  return f!;
}

/**
 * The value of the sample `sample` (a counter's `_total`, a histogram's `_count`) of family
 * `name` whose labels include `labels` (0 when absent).
 */
function value(families: Family[], name: string, labels: Record<string, string> = {}, sample?: string): number {
  const f = families.find((x) => x.name === name);
  const wanted = sample ?? (f?.type === 'counter' ? `${name}_total` : f?.type === 'histogram' ? `${name}_count` : name);
  const m = f?.samples.find((x) => x.name === wanted && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return m ? m.value : 0;
}

describe('Prometheus metrics', function () {
  this.timeout(60_000);
  let s: TestServer;

  before(async () => {
    s = await bootServer();
  });
  after(async () => s?.close());

  it('counts and times API requests by route template and status', async () => {
    const p = (await s.post('/projects', { json: { name: 'measured' } })).body;
    const labels = { method: 'GET', route: '/api/v4/projects/:id', status: '200' };
    const before = await scrape(s);
    await s.get(`/projects/${p.id}`);
    await s.get(`/projects/${encodeURIComponent(p.path_with_namespace)}`);
    await s.get('/projects/999999');
    const after = await scrape(s);
    expect(value(after, 'http_requests', labels) - value(before, 'http_requests', labels)).to.equal(2);
    const missing = { method: 'GET', route: '/api/v4/projects/:id', status: '404' };
    expect(value(after, 'http_requests', missing) - value(before, 'http_requests', missing)).to.equal(1);
    expect(value(after, 'http_request_duration_seconds', labels) - value(before, 'http_request_duration_seconds', labels)).to.equal(2);
    // Never a raw URL as a label.
    for (const m of family(after, 'http_requests').samples) {
      expect(m.labels.route).to.not.include(String(p.id));
      expect(m.labels.route).to.not.include('measured');
    }
    await fetch(`${s.url}/no/such/page/${p.id}`);
    expect(value(await scrape(s), 'http_requests', { route: 'unmatched', status: '404' })).to.be.at.least(1);
  });

  it('counts git clones, fetches and pushes with their bytes', async () => {
    const p = (await s.post('/projects', { json: { name: 'gitty' } })).body;
    const url = repoUrl(s, p.path_with_namespace, (await s.createUser('gitter', { admin: true })).token);
    const before = await scrape(s);
    const work = await workRepo([{ 'a.txt': 'a\n'.repeat(1000) }]);
    await gitOk(['push', '-q', url, 'master:master'], { cwd: work });
    const clone = path.join(tempDir(), 'c');
    await gitOk(['clone', '-q', url, clone]);
    await commit(work, { 'b.txt': 'b\n' });
    await gitOk(['push', '-q', url, 'master:master'], { cwd: work });
    await gitOk(['fetch', '-q', 'origin'], { cwd: clone });
    const after = await scrape(s);
    const moved = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(moved('wharf_git_operations', { operation: 'push' })).to.equal(2);
    expect(moved('wharf_git_operations', { operation: 'clone' })).to.equal(1);
    expect(moved('wharf_git_operations', { operation: 'fetch' })).to.equal(1);
    expect(moved('wharf_git_operations', { operation: 'advertise' })).to.be.at.least(4);
    expect(moved('wharf_git_transferred_bytes', { direction: 'received', service: 'git-receive-pack' })).to.be.above(100);
    expect(moved('wharf_git_transferred_bytes', { direction: 'sent', service: 'git-upload-pack' })).to.be.above(100);
    expect(value(after, 'http_requests', { route: '/:namespace/:project.git/git-receive-pack', status: '200' })).to.be.at.least(2);
  });

  it('reports the database pool, process memory and event-loop lag', async () => {
    const families = await scrape(s);
    expect(value(families, 'wharf_db_pool_connections', { state: 'max' })).to.be.at.least(1);
    expect(family(families, 'wharf_db_pool_connections').samples.map((m) => m.labels.state)).to.include.members(['used', 'free', 'pending_acquires']);
    expect(value(families, 'process_resident_memory_bytes')).to.be.above(1_000_000);
    family(families, 'nodejs_eventloop_lag_seconds');
    family(families, 'nodejs_heap_size_used_bytes');
  });

  it("reads the job queue through the queue's registered source, and survives one that fails", async () => {
    let backlog = 3;
    const stop = registerQueueMetrics(async () => ({ queues: { default: { backlog, latency: 2 }, cronjob: { backlog: 0, latency: 0 } }, processed: 5, failed: 1 }));
    const broken = registerQueueMetrics(async () => {
      throw new Error('no such table: jobs');
    });
    try {
      let families = await scrape(s);
      expect(value(families, 'wharf_job_queue_backlog', { queue: 'default' })).to.equal(3);
      expect(value(families, 'wharf_job_queue_latency_seconds', { queue: 'default' })).to.equal(2);
      expect(value(families, 'wharf_jobs', { outcome: 'failed' })).to.equal(1);
      backlog = 7;
      families = await scrape(s);
      expect(value(families, 'wharf_job_queue_backlog', { queue: 'default' })).to.equal(7);
    } finally {
      stop();
      broken();
    }
    // The server's own source is left: the real queue's backlog.
    expect(value(await scrape(s), 'wharf_job_queue_backlog', { queue: 'default' })).to.equal((await queueMetrics(s.db)).default.backlog);
  });

  it('shows the real queue: a queued job in the backlog, then its run in the durations', async () => {
    const runs = async () => value(await scrape(s), 'wharf_job_duration_seconds', { queue: 'default', outcome: 'success' });
    const before = await runs();
    await s.drainJobs();
    const waiting = value(await scrape(s), 'wharf_job_queue_backlog', { queue: 'default' });
    await enqueueJob(s.db, 'noop', {});
    expect(value(await scrape(s), 'wharf_job_queue_backlog', { queue: 'default' })).to.equal(waiting + 1);
    await s.drainJobs();
    expect(value(await scrape(s), 'wharf_job_queue_backlog', { queue: 'default' })).to.equal(0);
    expect(await runs()).to.be.greaterThan(before);
  });

  it('answers 404 while prometheus_metrics_enabled is off', async () => {
    await s.put('/application/settings', { json: { prometheus_metrics_enabled: false } });
    const r = await fetch(`${s.url}/-/metrics`);
    expect(r.status).to.equal(404);
    expect(await r.json()).to.deep.equal({ error: '404 Not Found' });
    await s.put('/application/settings', { json: { prometheus_metrics_enabled: true } });
    expect((await fetch(`${s.url}/-/metrics`)).status).to.equal(200);
  });

  it('answers 404 to clients outside WHARF_MONITORING_WHITELIST', async () => {
    const other = await bootServer({ WHARF_MONITORING_WHITELIST: '10.0.0.0/8, fd00::/8' });
    try {
      const r = await fetch(`${other.url}/-/metrics`);
      expect(r.status).to.equal(404);
      expect(r.headers.get('content-type')).to.equal('application/json');
      expect(await r.json()).to.deep.equal({ error: '404 Not Found' });
    } finally {
      await other.close();
    }
  });

  it('matches addresses and ranges of both families, IPv4 seen as IPv6 too', () => {
    const list = new IpWhitelist(['127.0.0.0/8', '::1', '192.168.1.7', 'fd00::/8']);
    for (const ip of ['127.0.0.1', '127.9.9.9', '::ffff:127.0.0.1', '::1', '192.168.1.7', 'fd12::1']) expect(list.allows(ip), ip).to.equal(true);
    for (const ip of ['128.0.0.1', '192.168.1.8', '::2', 'fe80::1', '', undefined, 'localhost']) expect(list.allows(ip), String(ip)).to.equal(false);
    expect(loadConfig({}).monitoringWhitelist).to.deep.equal(['127.0.0.0/8', '::1']);
    for (const bad of ['127.0.0.0/33', 'localhost', '10.0.0.0/8/1', '::1/129', '1.2.3']) {
      expect(() => loadConfig({ WHARF_MONITORING_WHITELIST: bad }), bad).to.throw(/WHARF_MONITORING_WHITELIST/);
    }
  });
});

describe('Prometheus metrics of several worker processes (WHARF_WORKERS=2)', function () {
  this.timeout(120_000);
  let dir: string;
  let server: ChildServer;
  before(async () => {
    dir = tempDataDir();
    server = await ChildServer.start(dir, { WHARF_WORKERS: '2' });
  });
  after(async () => {
    await server?.stop();
    await removeDataDir(dir);
  });

  /** A request on a connection of its own, so that the primary hands it to a worker in turn. */
  function getOnce(url: string): Promise<{ status: number; body: string; pid: string }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { agent: false, headers: { Connection: 'close' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, pid: String(res.headers['x-wharf-pid'] ?? '') }));
        })
        .on('error', reject);
    });
  }

  it('counts in one scrape every request the server answered, whichever worker answered it', async () => {
    const before = value(await parsePrometheus((await getOnce(`${server.url}/-/metrics`)).body), 'http_requests', { route: '/api/v4/version', status: '200' });
    const N = 15;
    for (let i = 0; i < N; i++) expect((await getOnce(`${server.url}/api/v4/version?private_token=${CHILD_ROOT_TOKEN}`)).status).to.equal(200);
    // Every scrape, whichever worker answers it, sees all N.
    for (let i = 0; i < 4; i++) {
      const families = await parsePrometheus((await getOnce(`${server.url}/-/metrics`)).body);
      expect(value(families, 'http_requests', { route: '/api/v4/version', status: '200' }) - before, `scrape ${i}`).to.equal(N);
      expect(families.filter((f) => f.name === 'http_requests')).to.have.length(1); // merged, not listed per worker
    }
  });
});
