// Notification settings (GitLab 10.8's notification_settings, and users.notification_email): a
// user's global level (source `Global`, 0: one row, unique like the others), and their level for
// a project or a group, each with the custom events. Levels are stored as 10.8's enum numbers.
import type { Knex } from 'knex';

const EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'success_pipeline',
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_settings', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('source_type', 16).notNullable(); // Global | Project | Namespace
    t.integer('source_id').notNullable(); // 0 for Global
    t.integer('level').notNullable();
    for (const e of EVENTS) t.boolean(e);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['user_id', 'source_type', 'source_id']);
  });
  await knex.schema.alterTable('users', (t) => t.string('notification_email', 255));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.dropColumn('notification_email'));
  await knex.schema.dropTable('notification_settings');
}
