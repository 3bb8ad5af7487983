// One row per delivery attempt of a webhook (GitLab 10.8's `web_hook_logs`): what was sent,
// how the receiver answered (or the internal error: refused address, timeout, connection
// refused), how long it took. Gone with the hook.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('web_hook_logs', (t) => {
    t.increments('id').primary();
    t.integer('web_hook_id').notNullable().references('id').inTable('web_hooks').onDelete('CASCADE');
    t.string('trigger', 40).notNullable();
    t.text('url').notNullable();
    t.integer('attempt').notNullable();
    t.string('response_status', 40).notNullable();
    t.text('response_body').nullable();
    t.text('internal_error_message').nullable();
    t.float('execution_duration').notNullable();
    t.string('created_at', 40).notNullable();
    t.index(['web_hook_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('web_hook_logs');
}
