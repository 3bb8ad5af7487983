// The CI tables shared by the runner, the variables API, deployments and commit statuses:
// GitLab 10.8's ci_variables (project) and ci_group_variables (unique key per owner;
// `protected` ones are only given to jobs of protected refs), environments (unique name per
// project, GitLab's 24-character slug) and deployments (per-project iid; the job that
// deployed). GitLab keeps external commit statuses in ci_builds as GenericCommitStatus rows:
// `type` tells them apart from jobs the runner picks up, with their `description` and
// `target_url`. `build_timeout` is the project's job timeout in seconds (GitLab's default 1 h).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ci_variables', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.text('value').notNullable();
    t.boolean('protected').notNullable().defaultTo(false);
    t.unique(['project_id', 'key']);
  });
  await knex.schema.createTable('ci_group_variables', (t) => {
    t.increments('id');
    t.integer('group_id').notNullable().references('namespaces.id').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.text('value').notNullable();
    t.boolean('protected').notNullable().defaultTo(false);
    t.unique(['group_id', 'key']);
  });
  await knex.schema.createTable('environments', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('slug', 24).notNullable();
    t.string('external_url', 255);
    t.string('state', 16).notNullable().defaultTo('available');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.unique(['project_id', 'name']);
    t.unique(['project_id', 'slug']);
  });
  await knex.schema.createTable('deployments', (t) => {
    t.increments('id');
    t.integer('iid').notNullable();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.string('ref', 255).notNullable();
    t.boolean('tag').notNullable().defaultTo(false);
    t.string('sha', 40).notNullable();
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    t.integer('deployable_id').references('ci_builds.id').onDelete('SET NULL');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.unique(['project_id', 'iid']);
    t.index(['environment_id', 'id']);
  });
  await knex.schema.alterTable('ci_builds', (t) => {
    t.string('type', 32).notNullable().defaultTo('Ci::Build');
    t.text('description');
    t.string('target_url', 1024);
  });
  await knex.schema.alterTable('projects', (t) => {
    t.integer('build_timeout').notNullable().defaultTo(3600);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => t.dropColumn('build_timeout'));
  await knex.schema.alterTable('ci_builds', (t) => {
    t.dropColumn('type');
    t.dropColumn('description');
    t.dropColumn('target_url');
  });
  await knex.schema.dropTable('deployments');
  await knex.schema.dropTable('environments');
  await knex.schema.dropTable('ci_group_variables');
  await knex.schema.dropTable('ci_variables');
}
