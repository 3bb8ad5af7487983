// The durable job queue (src/store/job_queue.ts, src/jobs/runner.ts): what GitLab kept in
// Sidekiq's Redis, kept in the store so that a job exists exactly when the change that
// queued it commits, and survives a restart or a kill -9.
// - `jobs`: one row per job, from queued to succeeded or failed. `run_at` is when it may run
//   (a retry's backoff moves it); a running job carries its lease (`locked_by`, `locked_until`),
//   renewed while its process lives, so that a job whose process died is taken again.
//   `unique_key` (unique, NULL for most jobs) holds at most one job per key: a daily run per
//   day, one housekeeping per project at a time.
// - `job_processes`: the heartbeat of every process that runs jobs (Sidekiq's process set).
// - `job_stats`: Sidekiq's processed/failed counters, moved in the transaction that ends a run.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.increments('id').primary();
    t.string('queue', 64).notNullable();
    t.string('kind', 100).notNullable();
    t.text('payload').notNullable();
    t.string('state', 16).notNullable(); // queued | running | succeeded | failed
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts'); // NULL: the kind's registered default
    t.string('run_at', 30).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('started_at', 30);
    t.string('finished_at', 30);
    t.string('locked_by', 128);
    t.string('locked_until', 30);
    t.string('unique_key', 255).unique();
    t.string('unique_until', 16); // started | finished | pruned
    t.text('progress');
    t.text('result');
    t.text('last_error');
    t.index(['state', 'run_at'], 'jobs_state_run_at');
    t.index(['state', 'locked_until'], 'jobs_state_locked_until');
    t.index(['locked_by', 'state'], 'jobs_locked_by_state');
    t.index(['state', 'finished_at'], 'jobs_state_finished_at');
  });
  await knex.schema.createTable('job_processes', (t) => {
    t.string('id', 128).primary();
    t.string('hostname', 255).notNullable();
    t.integer('pid').notNullable();
    t.string('tag', 64).notNullable();
    t.string('started_at', 30).notNullable();
    t.text('queues').notNullable(); // JSON array
    t.text('labels').notNullable(); // JSON array
    t.integer('concurrency').notNullable();
    t.string('beat_at', 30).notNullable();
    t.index(['beat_at'], 'job_processes_beat_at');
  });
  await knex.schema.createTable('job_stats', (t) => {
    t.string('name', 32).primary();
    t.bigInteger('value').notNullable().defaultTo(0);
  });
  await knex('job_stats').insert([
    { name: 'processed', value: 0 },
    { name: 'failed', value: 0 },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('job_stats');
  await knex.schema.dropTable('job_processes');
  await knex.schema.dropTable('jobs');
}
