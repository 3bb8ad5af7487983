// The periodic jobs are queued in `jobs` under a unique key per period (src/jobs/scheduler.ts),
// which replaced the claim table of 20261122000019: nothing reads `job_runs` any more.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('job_runs');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_runs', (t) => {
    t.string('name', 64).primary();
    t.string('started_at', 30).notNullable();
  });
}
