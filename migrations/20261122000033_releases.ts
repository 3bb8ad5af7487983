// Release notes of tags (GitLab 10.8's `releases`: one per tag name of a project, written by
// POST/PUT .../repository/tags/:tag_name/release or `release_description` when a tag is
// created, shown as the tag's `release`, deleted with the tag). Rows go with their project.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('releases', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('tag').notNullable();
    t.text('description').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['project_id', 'tag']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('releases');
}
