// Request counters of the rate limits (the `throttle_*` settings): one row per throttle, client
// (an IP or a user id) and fixed window, so that every worker process counts against the same
// budget, as Rack::Attack's shared cache did for GitLab. Windows that have ended are deleted.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('bucket', 200).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('hits').notNullable().defaultTo(0);
    t.bigInteger('expires_at').notNullable();
    t.primary(['bucket', 'window_start']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_counters');
}
