// When each periodic job last started, shared by every Wharf process on the database, so that
// a daily job runs in one process a day however many serve (src/jobs/claim.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_runs', (t) => {
    t.string('name', 64).primary();
    t.string('started_at', 30).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('job_runs');
}
