// Files uploaded to a project (GitLab 10.8's `uploads` of FileUploader, POST /projects/:id/uploads):
// each at `/uploads/<secret>/<filename>` of its project, the secret 32 random hex digits, the
// content stored once by its SHA-256 under `@wharf/uploads/` (services/uploads/).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('uploads', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('uploaded_by_user_id').references('users.id').onDelete('SET NULL');
    t.string('secret', 32).notNullable();
    t.string('filename', 255).notNullable();
    t.string('sha256', 64).notNullable();
    t.bigInteger('size').notNullable();
    t.string('created_at', 30).notNullable();
    t.unique(['project_id', 'secret', 'filename']);
    t.index(['sha256']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('uploads');
}
