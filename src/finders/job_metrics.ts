// What GitLab 10.8's Sidekiq metrics endpoints report, read from the job queue itself
// (lib/api/sidekiq_metrics.rb): per queue the backlog (jobs due and waiting) and the latency
// (seconds the oldest of them has waited since it became due); the live processes from their
// heartbeats, each with the jobs it holds under a live lease (`busy`); the processed and
// failed counters, and the jobs waiting in all queues (`enqueued`; retries and scheduled jobs
// not yet due are not counted, as Sidekiq keeps those in its retry and schedule sets).
import type { Conn } from '../store/db.js';
import { QUEUE_NAMES } from '../store/job_queue.js';
import { liveProcesses } from '../store/job_processes.js';

export interface QueueMetric {
  backlog: number;
  latency: number;
}

export async function queueMetrics(db: Conn, at = new Date()): Promise<Record<string, QueueMetric>> {
  const stamp = at.toISOString();
  const rows: { queue: string; n: number | string; oldest: string }[] = await db('jobs')
    .where('state', 'queued')
    .andWhere('run_at', '<=', stamp)
    .groupBy('queue')
    .select('queue')
    .count({ n: '*' })
    .min({ oldest: 'run_at' });
  const found = new Map(rows.map((r) => [r.queue, r]));
  const names = [...new Set<string>([...QUEUE_NAMES, ...found.keys()])].sort();
  const metrics: Record<string, QueueMetric> = {};
  for (const name of names) {
    const r = found.get(name);
    metrics[name] = r ? { backlog: Number(r.n), latency: Math.max(0, Math.floor((at.getTime() - Date.parse(r.oldest)) / 1000)) } : { backlog: 0, latency: 0 };
  }
  return metrics;
}

export interface ProcessMetric {
  hostname: string;
  pid: number;
  tag: string;
  started_at: string;
  queues: string[];
  labels: string[];
  concurrency: number;
  busy: number;
}

export async function processMetrics(db: Conn, at = new Date()): Promise<ProcessMetric[]> {
  const processes = await liveProcesses(db, at);
  const held: { locked_by: string; n: number | string }[] = await db('jobs')
    .where('state', 'running')
    .andWhere('locked_until', '>=', at.toISOString())
    .groupBy('locked_by')
    .select('locked_by')
    .count({ n: '*' });
  const busy = new Map(held.map((h) => [h.locked_by, Number(h.n)]));
  // Sidekiq lists the processes that run jobs: a worker that serves requests only is not one.
  return processes
    .filter((p) => Number(p.concurrency) > 0)
    .map((p) => ({
      hostname: p.hostname,
      pid: Number(p.pid),
      tag: p.tag,
      started_at: p.started_at,
      queues: JSON.parse(p.queues),
      labels: JSON.parse(p.labels),
      concurrency: Number(p.concurrency),
      busy: busy.get(p.id) ?? 0,
    }));
}

export interface JobStats {
  processed: number;
  failed: number;
  enqueued: number;
}

export async function jobStats(db: Conn, at = new Date()): Promise<JobStats> {
  const counters: { name: string; value: number | string }[] = await db('job_stats').select('name', 'value');
  const value = (name: string) => Number(counters.find((c) => c.name === name)?.value ?? 0);
  const waiting = await db('jobs').where('state', 'queued').andWhere('run_at', '<=', at.toISOString()).count({ n: '*' }).first();
  return { processed: value('processed'), failed: value('failed'), enqueued: Number(waiting?.n ?? 0) };
}
