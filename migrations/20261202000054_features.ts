// Feature flags (GitLab 10.8 keeps Flipper's `features` and `feature_gates`): a feature is
// persisted once a gate of it is set, and each gate value is one row: `boolean` and
// `percentage_of_time` hold one value, `groups` and `actors` one row per member of their set
// ("perf_team", "User:12"). Gates go with their feature.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('features', (t) => {
    t.increments('id');
    t.string('key', 255).notNullable().unique();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  await knex.schema.createTable('feature_gates', (t) => {
    t.increments('id');
    t.integer('feature_id').notNullable().references('features.id').onDelete('CASCADE');
    t.string('key', 50).notNullable();
    t.string('value', 255).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['feature_id', 'key', 'value']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('feature_gates');
  await knex.schema.dropTableIfExists('features');
}
