// Uploaded avatars of users, projects and groups (GitLab 10.8's `avatar` file parameter): the
// image itself, at most 200 KB (Avatarable's limit), kept in the database with its owner so
// that storing it is one transactional write and it needs no folder of its own. The owner's
// `avatar_url` column holds the path it is served at, `/uploads/-/system/<model>/avatar/<id>/
// <filename>`, as 10.8's AvatarUploader names it; one avatar per owner (a new one replaces it).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('avatars', (t) => {
    t.increments('id');
    t.string('model', 16).notNullable(); // 'user' | 'project' | 'group'
    t.integer('model_id').notNullable();
    t.string('filename', 255).notNullable();
    t.binary('data').notNullable();
    t.string('created_at', 30).notNullable();
    t.unique(['model', 'model_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('avatars');
}
