// Project labels, their per-user subscriptions, and project milestones.
// Titles are unique per project exactly as typed: GitLab 10.8 compares them case-sensitively
// (its unique index is on title itself), so "Bug" and "bug" may coexist.
// A label's priority lives on its row: CE allows one priority per project label.
// Every row hangs off its project (and subscriptions off their user) with ON DELETE CASCADE,
// so deleting a project or a user needs no extra code here.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('labels', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('title', 255).notNullable();
    t.string('color', 7).notNullable();
    t.text('description');
    t.integer('priority');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    // Leads with project_id: also serves "the project's labels by title".
    t.unique(['project_id', 'title']);
  });

  await knex.schema.createTable('label_subscriptions', (t) => {
    t.integer('label_id').notNullable().references('labels.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('created_at', 30).notNullable();
    t.primary(['label_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('milestones', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('iid').notNullable();
    t.text('title').notNullable();
    t.text('description');
    t.string('state', 16).notNullable().defaultTo('active');
    t.string('due_date', 10);
    t.string('start_date', 10);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['project_id', 'iid']);
    t.unique(['project_id', 'title']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('milestones');
  await knex.schema.dropTableIfExists('label_subscriptions');
  await knex.schema.dropTableIfExists('labels');
}
