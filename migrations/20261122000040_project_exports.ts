// GitLab 10.8 kept a project's export state in its export folder (and ProjectExportWorker's
// status); Wharf keeps it in a row per project: the status `GET /projects/:id/export` answers
// (`started`, `after_export_action`, `finished`), the finished archive's file name, and the
// upload asked for with `upload[url]` (src/services/import_export/project_export.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('project_exports', (t) => {
    t.integer('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.string('status', 32).notNullable();
    t.string('file_name', 255);
    t.text('description');
    t.text('upload_url');
    t.string('upload_method', 8);
    t.text('error');
    t.timestamp('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('project_exports');
}
