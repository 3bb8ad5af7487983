// The process's Prometheus metrics (prom-client), what `GET /-/metrics` serves (GitLab 10.8's
// Gitlab::Metrics with prometheus_metrics_enabled): HTTP requests by route template and status,
// git operations and bytes, database pool use, background-job queues, and Node's own process
// metrics (resident memory, heap, event-loop lag). One registry per process; with several
// worker processes a scrape answers for all of them together (metrics/cluster.ts).
//
// The job queue lives elsewhere: its owner calls registerQueueMetrics() with a function that
// reads the queue (scraped on demand; a failing or missing source is skipped), and may count
// runs and failures with recordJobRun as they happen.
//
// prom-client is loaded on the first scrape, not at start (it costs an idle process several MB,
// of the 80 MB it stays under); Wharf's own metrics record from the start in services/metrics/values.ts, and
// Node's process metrics start then (their counters, CPU seconds and the like, count from the
// process's start all the same; the garbage-collection histogram from that first scrape).
import type { Metric, Registry } from 'prom-client';
import { Counter, Gauge, Histogram } from './values.js';
import { answerCollections, gatherFromWorkers, inCluster } from './cluster.js';

const ROUTE_LABELS = ['method', 'route', 'status'] as const;

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'Requests served, by method, route template and status',
  labelNames: ROUTE_LABELS,
});

export const httpDuration = new Histogram(
  {
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route template and status',
    labelNames: ROUTE_LABELS,
  },
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
);

export type GitOperation = 'clone' | 'fetch' | 'ls_refs' | 'push' | 'advertise';

const gitOperations = new Counter({
  name: 'wharf_git_operations_total',
  help: 'git over HTTP requests served: clone and fetch (upload-pack requests without and with `have` lines), push, ref advertisements',
  labelNames: ['operation'] as const,
});

const gitBytes = new Counter({
  name: 'wharf_git_transferred_bytes_total',
  help: 'Bytes of git over HTTP bodies, received from clients and sent to them, by service',
  labelNames: ['direction', 'service'] as const,
});

/** Records one served git request. */
export function recordGitOperation(operation: GitOperation, service: string, bytesIn: number, bytesOut: number): void {
  gitOperations.inc({ operation });
  if (bytesIn > 0) gitBytes.inc({ direction: 'received', service }, bytesIn);
  if (bytesOut > 0) gitBytes.inc({ direction: 'sent', service }, bytesOut);
}

const domainEvents = new Counter({
  name: 'wharf_domain_events_total',
  help: 'What happened, as the services announced it (services/domain_events.ts), counted when the change committed',
  labelNames: ['event'] as const,
});

/** Counts one committed domain event. */
export function recordDomainEvent(event: string): void {
  domainEvents.inc({ event });
}

/** What a knex (tarn) pool reports. */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

const pools = new Set<Pool>();

/** Reports this store's pool; the returned function stops reporting it (at close). */
export function registerDbPool(db: { client: { pool?: unknown } }): () => void {
  const pool = db.client.pool as Pool | undefined;
  if (!pool) return () => {};
  pools.add(pool);
  return () => pools.delete(pool);
}

const dbPool = new Gauge(
  {
    name: 'wharf_db_pool_connections',
    help: 'Database connections by state: used, free, pending_acquires (requests waiting for one), pending_creates, max',
    labelNames: ['state'] as const,
  },
  (gauge) => {
    const sum = (f: (p: Pool) => number) => [...pools].reduce((n, p) => n + f(p), 0);
    gauge.set(
      { state: 'used' },
      sum((p) => p.numUsed()),
    );
    gauge.set(
      { state: 'free' },
      sum((p) => p.numFree()),
    );
    gauge.set(
      { state: 'pending_acquires' },
      sum((p) => p.numPendingAcquires()),
    );
    gauge.set(
      { state: 'pending_creates' },
      sum((p) => p.numPendingCreates()),
    );
    gauge.set(
      { state: 'max' },
      sum((p) => p.max),
    );
  },
);

/** One reading of the job queue. */
interface QueueSnapshot {
  /** Per queue name: jobs waiting, and how long the oldest has waited (seconds). */
  queues: Record<string, { backlog: number; latency: number }>;
  /** Jobs finished and failed so far, if the queue keeps those counts. */
  processed?: number;
  failed?: number;
}

type QueueSource = () => Promise<QueueSnapshot>;
const queueSources = new Set<QueueSource>();
let onSourceError: (err: unknown) => void = () => {};

/** The job queue's owner registers its reader; the returned function unregisters it. */
export function registerQueueMetrics(source: QueueSource, onError?: (err: unknown) => void): () => void {
  queueSources.add(source);
  if (onError) onSourceError = onError;
  return () => queueSources.delete(source);
}

// Read from the shared database by every process: across workers, one reading, not their sum.
const backlog = new Gauge({ name: 'wharf_job_queue_backlog', help: 'Jobs waiting, by queue', labelNames: ['queue'] as const, aggregator: 'max' });
const latency = new Gauge({
  name: 'wharf_job_queue_latency_seconds',
  help: 'How long the oldest waiting job of each queue has waited',
  labelNames: ['queue'] as const,
  aggregator: 'max',
});
const jobTotals = new Gauge({ name: 'wharf_jobs', help: 'Jobs the queue has recorded, by outcome (processed, failed)', labelNames: ['outcome'] as const, aggregator: 'max' });

const jobRuns = new Histogram(
  {
    name: 'wharf_job_duration_seconds',
    help: 'Time a job took to run, by queue and outcome, in this process',
    labelNames: ['queue', 'outcome'] as const,
  },
  [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800],
);

const jobFailures = new Counter({
  name: 'wharf_job_failures_total',
  help: 'Job runs that failed, by queue, in this process',
  labelNames: ['queue'] as const,
});

export function recordJobRun(queue: string, seconds: number, ok: boolean): void {
  jobRuns.observe({ queue, outcome: ok ? 'success' : 'failure' }, seconds);
  if (!ok) jobFailures.inc({ queue });
}

/** Reads every registered queue source into the gauges (before each scrape). */
async function collectQueues(): Promise<void> {
  backlog.reset();
  latency.reset();
  jobTotals.reset();
  for (const source of queueSources) {
    try {
      const snap = await source();
      for (const [queue, q] of Object.entries(snap.queues)) {
        backlog.set({ queue }, q.backlog);
        latency.set({ queue }, q.latency);
      }
      if (snap.processed !== undefined) jobTotals.set({ outcome: 'processed' }, snap.processed);
      if (snap.failed !== undefined) jobTotals.set({ outcome: 'failed' }, snap.failed);
    } catch (err) {
      onSourceError(err); // the queue's table may not exist yet: the other metrics still answer
    }
  }
}

// The last backup this process made (services/backup/): across workers, the latest.
const backupTime = new Gauge({ name: 'wharf_backup_last_success_timestamp_seconds', help: 'When the last backup finished', labelNames: [] as const, aggregator: 'max' });
const backupBytes = new Gauge({ name: 'wharf_backup_last_size_bytes', help: 'The size of the last backup', labelNames: [] as const, aggregator: 'max' });
const backupSeconds = new Gauge({ name: 'wharf_backup_last_duration_seconds', help: 'How long the last backup took', labelNames: [] as const, aggregator: 'max' });

export function recordBackup(at: Date, bytes: number, ms: number): void {
  backupTime.set({}, Math.floor(at.getTime() / 1000));
  backupBytes.set({}, bytes);
  backupSeconds.set({}, ms / 1000);
}

const OWN = [httpRequests, httpDuration, gitOperations, gitBytes, domainEvents, dbPool, backlog, latency, jobTotals, jobRuns, jobFailures, backupTime, backupBytes, backupSeconds];

let registry: Promise<Registry> | null = null;

/** prom-client's registry, made on the first scrape: Node's process metrics and ours. */
function theRegistry(): Promise<Registry> {
  registry ??= import('prom-client').then(({ default: client }) => {
    const r = new client.Registry();
    client.collectDefaultMetrics({ register: r });
    for (const metric of OWN) r.registerMetric(metric as unknown as Metric);
    return r;
  });
  return registry;
}

/** This process's metrics in prom-client's JSON form (what a worker gives a cluster scrape). */
async function ownMetricsJson(): Promise<unknown> {
  const r = await theRegistry();
  await collectQueues();
  return r.getMetricsAsJSON();
}

answerCollections(ownMetricsJson);

/** The text exposition of every metric: this process's, or every worker's merged. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const r = await theRegistry();
  if (inCluster()) {
    const parts = await gatherFromWorkers();
    if (parts.length) {
      const { default: client } = await import('prom-client');
      const merged = client.AggregatorRegistry.aggregate(parts as Parameters<typeof client.AggregatorRegistry.aggregate>[0]);
      return { contentType: r.contentType, body: await merged.metrics() };
    }
  }
  await collectQueues();
  return { contentType: r.contentType, body: await r.metrics() };
}
