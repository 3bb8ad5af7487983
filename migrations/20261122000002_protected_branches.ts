// Protected branches. GitLab 10.8 CE keeps the push and merge levels in two child tables but
// allows exactly one row of each per branch, so here they are two columns of one row.
// `name` is a branch name or a `*` wildcard; it is unique within a project (the API answers
// 409 for a second rule of the same name, and the index settles concurrent creates).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('protected_branches', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.integer('push_access_level').notNullable().defaultTo(40);
    t.integer('merge_access_level').notNullable().defaultTo(40);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    // Leads with project_id: also serves "every rule of a project".
    t.unique(['project_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('protected_branches');
}
