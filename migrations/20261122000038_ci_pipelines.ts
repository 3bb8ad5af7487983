// GitLab 10.8's ci_pipelines and ci_builds (a job of a pipeline; `jobs` is Wharf's durable
// queue, so CI jobs keep GitLab's table name). A build's options (script, artifacts,
// environment, …) are kept as JSON, as GitLab serialized them. Indexes serve the list filters
// (project + status/ref/sha, newest first), a pipeline's jobs, and the runner's pickup.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ci_pipelines', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('ref', 255).notNullable();
    t.string('sha', 40).notNullable();
    t.string('before_sha', 40);
    t.boolean('tag').notNullable().defaultTo(false);
    t.text('yaml_errors');
    t.string('status', 16).notNullable().defaultTo('created');
    t.string('source', 16).notNullable();
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.string('started_at');
    t.string('finished_at');
    t.string('committed_at');
    t.integer('duration');
    t.string('coverage', 32);
    t.index(['project_id', 'id']);
    t.index(['project_id', 'ref', 'id']);
    t.index(['project_id', 'sha']);
    t.index(['project_id', 'status']);
  });
  await knex.schema.createTable('ci_builds', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('pipeline_id').notNullable().references('ci_pipelines.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('stage', 255).notNullable();
    t.integer('stage_idx').notNullable();
    t.string('status', 16).notNullable().defaultTo('created');
    t.string('when', 16).notNullable().defaultTo('on_success');
    t.boolean('allow_failure').notNullable().defaultTo(false);
    t.boolean('retried').notNullable().defaultTo(false);
    t.string('ref', 255).notNullable();
    t.boolean('tag').notNullable().defaultTo(false);
    t.text('options').notNullable();
    t.text('yaml_variables').notNullable();
    t.text('tag_list').notNullable();
    t.string('environment', 255);
    t.string('coverage_regex', 255);
    t.float('coverage');
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    t.string('token_digest', 64);
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.string('queued_at');
    t.string('started_at');
    t.string('finished_at');
    t.string('artifacts_file', 255);
    t.integer('artifacts_size');
    t.string('artifacts_expire_at');
    t.index(['pipeline_id', 'stage_idx']);
    t.index(['project_id', 'id']);
    t.index(['status', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ci_builds');
  await knex.schema.dropTable('ci_pipelines');
}
