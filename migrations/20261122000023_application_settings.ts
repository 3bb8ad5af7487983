// The instance's application settings (GitLab's one `application_settings` row): the values an
// administrator changed, as JSON keyed by the API's names; every other setting reads as its
// default (src/services/settings_catalogue.ts), so a setting added later needs no migration.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('application_settings', (t) => {
    t.integer('id').primary();
    t.text('changed').notNullable().defaultTo('{}');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
  });
  const stamp = new Date().toISOString();
  await knex('application_settings').insert({ id: 1, changed: '{}', created_at: stamp, updated_at: stamp });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('application_settings');
}
