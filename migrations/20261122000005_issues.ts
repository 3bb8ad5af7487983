// Project issues, their assignees, and label links (shared with merge requests later).
// Deleting a project removes its issues (CASCADE). Deleting a user never removes issues:
// authorship and closed_by fall back to NULL (the API renders GitLab's "Ghost User" for a
// missing author, and no closed_by), assignments go with the user. A deleted milestone
// leaves its issues without one. Label links have no FK on target (polymorphic); their
// label FK cascades, and deleting an issue removes its links in the service.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('issues', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('iid').notNullable();
    t.text('title').notNullable();
    t.text('description');
    t.string('state', 16).notNullable().defaultTo('opened');
    t.integer('author_id').references('users.id').onDelete('SET NULL');
    t.boolean('confidential').notNullable().defaultTo(false);
    t.boolean('discussion_locked');
    t.string('due_date', 10);
    t.integer('milestone_id').references('milestones.id').onDelete('SET NULL');
    t.string('closed_at', 30);
    t.integer('closed_by_id').references('users.id').onDelete('SET NULL');
    t.integer('time_estimate').notNullable().defaultTo(0);
    t.integer('total_time_spent').notNullable().defaultTo(0);
    t.integer('user_notes_count').notNullable().defaultTo(0);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['project_id', 'iid']);
    t.index(['project_id', 'state', 'created_at']);
    t.index(['project_id', 'updated_at']);
    t.index(['author_id']);
    t.index(['milestone_id']);
    t.index(['closed_by_id']);
  });

  await knex.schema.createTable('issue_assignees', (t) => {
    t.integer('issue_id').notNullable().references('issues.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.primary(['issue_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('label_links', (t) => {
    t.string('target_type', 16).notNullable(); // 'issue' | 'merge_request'
    t.integer('target_id').notNullable();
    t.integer('label_id').notNullable().references('labels.id').onDelete('CASCADE');
    t.primary(['target_type', 'target_id', 'label_id']);
    t.index(['label_id', 'target_type']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('label_links');
  await knex.schema.dropTableIfExists('issue_assignees');
  await knex.schema.dropTableIfExists('issues');
}
