// Broadcast messages (GitLab 10.8's broadcast_messages table): an admin's banner text, shown
// between `starts_at` and `ends_at`, in a background `color` and a `font` colour. Times are
// the API's ISO 8601 UTC text, as every other timestamp of Wharf's; colours are text (a blank
// one is allowed and kept as given). `updated_at` answers a conditional DELETE.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('broadcast_messages', (t) => {
    t.increments('id');
    t.text('message').notNullable();
    t.string('starts_at', 30).notNullable();
    t.string('ends_at', 30).notNullable();
    t.text('color');
    t.text('font');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['starts_at', 'ends_at', 'id'], 'broadcast_messages_starts_ends_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('broadcast_messages');
}
