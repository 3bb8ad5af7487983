// The heartbeat of every process that runs jobs, shared through the store (Sidekiq's process
// set): each runner writes its row every few seconds and removes it when it stops; a row not
// written for PROCESS_TTL_MS belongs to a process that died and is no longer listed (and is
// swept by the next beat of any process). GET /sidekiq/process_metrics reads it.
import type { Conn } from './db.js';

/** A process not heard from for this long is gone (Sidekiq's 60 s). */
const PROCESS_TTL_MS = 60_000;

export interface JobProcess {
  id: string;
  hostname: string;
  pid: number;
  tag: string;
  startedAt: string;
  queues: string[];
  labels: string[];
  concurrency: number;
}

export interface JobProcessRow {
  id: string;
  hostname: string;
  pid: number;
  tag: string;
  started_at: string;
  queues: string;
  labels: string;
  concurrency: number;
  beat_at: string;
}

/** Writes this process's row (insert or refresh) and sweeps rows of processes gone silent. */
export async function beat(db: Conn, p: JobProcess, at = new Date()): Promise<void> {
  const row: JobProcessRow = {
    id: p.id,
    hostname: p.hostname,
    pid: p.pid,
    tag: p.tag,
    started_at: p.startedAt,
    queues: JSON.stringify(p.queues),
    labels: JSON.stringify(p.labels),
    concurrency: p.concurrency,
    beat_at: at.toISOString(),
  };
  await db('job_processes').insert(row).onConflict('id').merge(['beat_at', 'concurrency', 'queues', 'labels']);
  await db('job_processes')
    .where('beat_at', '<', new Date(at.getTime() - PROCESS_TTL_MS).toISOString())
    .delete();
}

export async function removeProcess(db: Conn, id: string): Promise<void> {
  await db('job_processes').where({ id }).delete();
}

/** The processes heard from within PROCESS_TTL_MS, oldest first. */
export async function liveProcesses(db: Conn, at = new Date()): Promise<JobProcessRow[]> {
  return db('job_processes')
    .where('beat_at', '>=', new Date(at.getTime() - PROCESS_TTL_MS).toISOString())
    .orderBy('started_at')
    .orderBy('id');
}
