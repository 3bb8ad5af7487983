// A title kept on the event itself, for targets that no longer exist when it is read: the
// "destroyed" event of a deleted project (whose project_id is then null) names the project.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.text('target_title');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.dropColumn('target_title');
  });
}
