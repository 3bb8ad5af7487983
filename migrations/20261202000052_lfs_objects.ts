// Git LFS's tables, as GitLab 10.8 keeps them: `lfs_objects` (one row per stored object, by its
// SHA-256 oid, unique, and its size), `lfs_objects_projects` (which projects may download an
// object: a link per project, so forks share the stored file and removing a project removes
// only its links) and `lfs_file_locks` (the File Locking API: one lock per path and project).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('lfs_objects', (t) => {
    t.increments('id');
    t.string('oid', 64).notNullable().unique();
    t.bigInteger('size').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  await knex.schema.createTable('lfs_objects_projects', (t) => {
    t.increments('id');
    t.integer('lfs_object_id').notNullable().references('lfs_objects.id').onDelete('CASCADE');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('created_at', 30).notNullable();
    t.unique(['project_id', 'lfs_object_id']);
    t.index(['lfs_object_id']);
  });
  await knex.schema.createTable('lfs_file_locks', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('path', 511).notNullable();
    t.string('created_at', 30).notNullable();
    t.unique(['project_id', 'path']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('lfs_file_locks');
  await knex.schema.dropTable('lfs_objects_projects');
  await knex.schema.dropTable('lfs_objects');
}
