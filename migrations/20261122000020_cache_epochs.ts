// One row per cache topic (tokens, memberships, settings, …) whose `epoch` a writer bumps in the
// transaction of its change. Every process reads the epochs once per request and drops what it
// cached under an older epoch: a change made through one worker process is never served stale
// by another (src/store/cache_epochs.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cache_epochs', (t) => {
    t.string('topic', 64).primary();
    t.bigInteger('epoch').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('cache_epochs');
}
