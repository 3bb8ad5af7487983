// Webhooks (GitLab 10.8's `web_hooks` table, ProjectHook and SystemHook by `type`): a project
// hook belongs to its project (gone with it); a system hook has no project. The token is kept
// as given, since it is sent to the receiver in X-Gitlab-Token; the API never returns it.
// Event columns default as 10.8's: push on, everything else off, TLS verification on.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('web_hooks', (t) => {
    t.increments('id').primary();
    t.string('type', 20).notNullable();
    t.integer('project_id').nullable().references('id').inTable('projects').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('token').nullable();
    t.boolean('push_events').notNullable().defaultTo(true);
    t.boolean('tag_push_events').notNullable().defaultTo(false);
    t.boolean('issues_events').notNullable().defaultTo(false);
    t.boolean('confidential_issues_events').notNullable().defaultTo(false);
    t.boolean('merge_requests_events').notNullable().defaultTo(false);
    t.boolean('note_events').notNullable().defaultTo(false);
    t.boolean('confidential_note_events').notNullable().defaultTo(false);
    t.boolean('job_events').notNullable().defaultTo(false);
    t.boolean('pipeline_events').notNullable().defaultTo(false);
    t.boolean('wiki_page_events').notNullable().defaultTo(false);
    t.boolean('repository_update_events').notNullable().defaultTo(false);
    t.boolean('enable_ssl_verification').notNullable().defaultTo(true);
    t.string('created_at', 40).notNullable();
    t.string('updated_at', 40).notNullable();
    t.index(['project_id']);
    t.index(['type']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('web_hooks');
}
