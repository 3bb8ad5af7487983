// Snippets (project and personal, GitLab's one `snippets` table with its `type`), the user agent
// detail recorded when one is created (GitLab's spam-check record), and badges of projects and
// groups. A snippet goes with its project and with its author (GitLab destroys a user's
// snippets with them); its notes, award emoji and events are removed by services/snippets/snippets.ts,
// as they point at it without a foreign key. A badge goes with its project or group.
import type { Knex } from 'knex';

function timestamps(t: Knex.CreateTableBuilder): void {
  t.string('created_at', 30).notNullable();
  t.string('updated_at', 30).notNullable();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('snippets', (t) => {
    t.increments('id');
    t.string('type', 16).notNullable(); // 'ProjectSnippet' | 'PersonalSnippet'
    t.integer('project_id').references('projects.id').onDelete('CASCADE');
    t.integer('author_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('title', 255).notNullable();
    t.string('file_name', 255);
    t.text('description');
    t.text('content').notNullable();
    t.integer('visibility_level').notNullable();
    timestamps(t);
    // Lists are newest first: a project's, an author's, and the public ones.
    t.index(['project_id', 'created_at']);
    t.index(['author_id', 'created_at']);
    t.index(['visibility_level', 'created_at']);
  });

  await knex.schema.createTable('snippet_user_agent_details', (t) => {
    t.integer('snippet_id').primary().references('snippets.id').onDelete('CASCADE');
    t.text('user_agent').notNullable();
    t.string('ip_address', 64).notNullable();
    t.boolean('submitted').notNullable().defaultTo(false);
    timestamps(t);
  });

  await knex.schema.createTable('badges', (t) => {
    t.increments('id');
    t.string('type', 16).notNullable(); // 'ProjectBadge' | 'GroupBadge'
    t.integer('project_id').references('projects.id').onDelete('CASCADE');
    t.integer('group_id').references('namespaces.id').onDelete('CASCADE');
    t.text('link_url').notNullable();
    t.text('image_url').notNullable();
    timestamps(t);
    t.index(['project_id']);
    t.index(['group_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('badges');
  await knex.schema.dropTableIfExists('snippet_user_agent_details');
  await knex.schema.dropTableIfExists('snippets');
}
