// Activity events (with the push payload of push events) and to-dos.
// An event's target is polymorphic (`target_type` is the class name: 'Issue',
// 'MergeRequest', 'Milestone', 'Note', ...); its title is read from the target when shown.
// Events go with their project (CASCADE) and with their author; todos with their user and
// project. The created_at index serves the retention job (one year).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (t) => {
    t.increments('id');
    t.integer('project_id').references('projects.id').onDelete('CASCADE');
    t.integer('author_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('action').notNullable();
    t.string('target_type', 32);
    t.integer('target_id');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['project_id', 'created_at']);
    t.index(['author_id', 'created_at']);
    t.index(['target_type', 'target_id']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('push_event_payloads', (t) => {
    t.integer('event_id').primary().references('events.id').onDelete('CASCADE');
    t.integer('commit_count').notNullable();
    t.string('action', 16).notNullable(); // created | removed | pushed
    t.string('ref_type', 8).notNullable(); // branch | tag
    t.string('commit_from', 40);
    t.string('commit_to', 40);
    t.text('ref').notNullable();
    t.string('commit_title', 70);
  });

  await knex.schema.createTable('todos', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('author_id').references('users.id').onDelete('SET NULL');
    t.string('target_type', 32).notNullable();
    t.integer('target_id').notNullable();
    t.integer('note_id');
    t.integer('action').notNullable();
    t.string('state', 16).notNullable().defaultTo('pending');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['user_id', 'state', 'id']);
    t.index(['target_type', 'target_id', 'user_id', 'state']);
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('todos');
  await knex.schema.dropTableIfExists('push_event_payloads');
  await knex.schema.dropTableIfExists('events');
}
