// The foundation schema: users, tokens, namespaces (users' and groups'), members, projects.
// Timestamps are ISO 8601 UTC strings with milliseconds, the API's own format, so they sort
// as text and read back unchanged on SQLite and PostgreSQL alike.
import type { Knex } from 'knex';

function timestamps(t: Knex.CreateTableBuilder): void {
  t.string('created_at', 30).notNullable();
  t.string('updated_at', 30).notNullable();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.string('username', 255).notNullable();
    t.string('email', 255).notNullable();
    t.string('name', 255).notNullable();
    t.string('password_digest', 255);
    t.string('state', 16).notNullable().defaultTo('active');
    t.boolean('admin').notNullable().defaultTo(false);
    t.text('bio');
    t.string('location', 255);
    t.string('skype', 255).notNullable().defaultTo('');
    t.string('linkedin', 255).notNullable().defaultTo('');
    t.string('twitter', 255).notNullable().defaultTo('');
    t.string('website_url', 255).notNullable().defaultTo('');
    t.string('organization', 255);
    t.integer('projects_limit').notNullable().defaultTo(100000);
    t.boolean('can_create_group').notNullable().defaultTo(true);
    t.boolean('external').notNullable().defaultTo(false);
    t.integer('theme_id').notNullable().defaultTo(1);
    t.integer('color_scheme_id').notNullable().defaultTo(1);
    t.string('avatar_url', 1024);
    t.string('confirmed_at', 30);
    t.string('last_sign_in_at', 30);
    t.string('current_sign_in_at', 30);
    t.string('last_activity_on', 10);
    timestamps(t);
  });
  await knex.raw('CREATE UNIQUE INDEX users_username_lower ON users (lower(username))');
  await knex.raw('CREATE UNIQUE INDEX users_email_lower ON users (lower(email))');

  await knex.schema.createTable('personal_access_tokens', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('token_digest', 64).notNullable().unique();
    t.text('scopes').notNullable();
    t.boolean('impersonation').notNullable().defaultTo(false);
    t.boolean('revoked').notNullable().defaultTo(false);
    t.string('expires_at', 10);
    timestamps(t);
    t.index(['user_id']);
  });

  // A namespace is either a user's personal one or a group (GitLab keeps groups in the same
  // table; a group's id is its namespace id).
  await knex.schema.createTable('namespaces', (t) => {
    t.increments('id');
    t.string('kind', 8).notNullable(); // 'user' | 'group'
    t.string('name', 255).notNullable();
    t.string('path', 255).notNullable();
    t.string('full_path', 1024).notNullable();
    t.string('full_name', 2048).notNullable();
    t.integer('owner_id').references('users.id').onDelete('CASCADE');
    t.integer('parent_id').references('namespaces.id').onDelete('CASCADE');
    t.text('description').notNullable().defaultTo('');
    t.integer('visibility_level').notNullable().defaultTo(0);
    t.boolean('request_access_enabled').notNullable().defaultTo(false);
    t.boolean('lfs_enabled').notNullable().defaultTo(true);
    t.string('avatar_url', 1024);
    timestamps(t);
    t.index(['owner_id']);
    t.index(['parent_id']);
  });
  await knex.raw('CREATE UNIQUE INDEX namespaces_full_path_lower ON namespaces (lower(full_path))');

  // Closure table: every (namespace, ancestor) pair, itself included at depth 0, so that
  // inherited group membership is one indexed join.
  await knex.schema.createTable('namespace_ancestors', (t) => {
    t.integer('namespace_id').notNullable().references('namespaces.id').onDelete('CASCADE');
    t.integer('ancestor_id').notNullable().references('namespaces.id').onDelete('CASCADE');
    t.integer('depth').notNullable();
    t.primary(['namespace_id', 'ancestor_id']);
    t.index(['ancestor_id']);
  });

  await knex.schema.createTable('projects', (t) => {
    t.increments('id');
    t.integer('namespace_id').notNullable().references('namespaces.id');
    t.string('name', 255).notNullable();
    t.string('path', 255).notNullable();
    t.text('description');
    t.integer('visibility_level').notNullable().defaultTo(0);
    t.string('default_branch', 255);
    t.integer('creator_id').references('users.id').onDelete('SET NULL');
    t.boolean('archived').notNullable().defaultTo(false);
    t.boolean('issues_enabled').notNullable().defaultTo(true);
    t.boolean('merge_requests_enabled').notNullable().defaultTo(true);
    t.boolean('jobs_enabled').notNullable().defaultTo(true);
    t.boolean('wiki_enabled').notNullable().defaultTo(true);
    t.boolean('snippets_enabled').notNullable().defaultTo(true);
    t.boolean('resolve_outdated_diff_discussions').notNullable().defaultTo(false);
    t.boolean('container_registry_enabled').notNullable().defaultTo(true);
    t.boolean('shared_runners_enabled').notNullable().defaultTo(true);
    t.boolean('public_jobs').notNullable().defaultTo(true);
    t.boolean('lfs_enabled').notNullable().defaultTo(true);
    t.boolean('request_access_enabled').notNullable().defaultTo(false);
    t.boolean('only_allow_merge_if_pipeline_succeeds').notNullable().defaultTo(false);
    t.boolean('only_allow_merge_if_all_discussions_are_resolved').notNullable().defaultTo(false);
    t.boolean('printing_merge_request_link_enabled').notNullable().defaultTo(true);
    t.string('merge_method', 16).notNullable().defaultTo('merge');
    t.string('ci_config_path', 255);
    t.text('tag_list').notNullable().defaultTo('[]');
    t.string('import_url', 2048);
    t.string('import_status', 16).notNullable().defaultTo('none');
    t.text('import_error');
    t.string('runners_token', 64).notNullable();
    t.string('avatar_url', 1024);
    t.integer('star_count').notNullable().defaultTo(0);
    t.integer('forked_from_id').references('projects.id').onDelete('SET NULL');
    timestamps(t);
    t.string('last_activity_at', 30).notNullable();
    t.index(['visibility_level']);
    t.index(['created_at']);
    t.index(['last_activity_at']);
    t.index(['updated_at']);
    t.index(['creator_id']);
    t.index(['forked_from_id']);
  });
  await knex.raw('CREATE UNIQUE INDEX projects_namespace_path_lower ON projects (namespace_id, lower(path))');
  await knex.raw('CREATE UNIQUE INDEX projects_namespace_name_lower ON projects (namespace_id, lower(name))');
  await knex.raw('CREATE INDEX projects_name_lower ON projects (lower(name))');

  // Project and group memberships, and later access requests (requested_at set).
  await knex.schema.createTable('members', (t) => {
    t.increments('id');
    t.string('source_type', 8).notNullable(); // 'project' | 'group'
    t.integer('source_id').notNullable();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('access_level').notNullable();
    t.string('expires_at', 10);
    t.string('requested_at', 30);
    t.integer('created_by_id').references('users.id').onDelete('SET NULL');
    timestamps(t);
    t.unique(['source_type', 'source_id', 'user_id']);
    t.index(['user_id', 'source_type']);
  });

  await knex.schema.createTable('project_group_links', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('group_id').notNullable().references('namespaces.id').onDelete('CASCADE');
    t.integer('group_access').notNullable();
    t.string('expires_at', 10);
    timestamps(t);
    t.unique(['project_id', 'group_id']);
    t.index(['group_id']);
  });

  await knex.schema.createTable('users_star_projects', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('created_at', 30).notNullable();
    t.primary(['user_id', 'project_id']);
    t.index(['project_id']);
  });

  await knex.schema.createTable('custom_attributes', (t) => {
    t.increments('id');
    t.string('subject_type', 8).notNullable(); // 'user' | 'project' | 'group'
    t.integer('subject_id').notNullable();
    t.string('key', 255).notNullable();
    t.string('value', 255).notNullable();
    timestamps(t);
    t.unique(['subject_type', 'subject_id', 'key']);
    t.index(['subject_type', 'key', 'value']);
  });

  // Repository figures, refreshed by whatever changes a repository (never computed per request).
  await knex.schema.createTable('project_statistics', (t) => {
    t.integer('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.integer('commit_count').notNullable().defaultTo(0);
    t.bigInteger('repository_size').notNullable().defaultTo(0);
    t.bigInteger('lfs_objects_size').notNullable().defaultTo(0);
    t.bigInteger('job_artifacts_size').notNullable().defaultTo(0);
    t.string('updated_at', 30).notNullable();
  });

  // Per-project counters behind iid (issues, merge requests, milestones).
  await knex.schema.createTable('internal_ids', (t) => {
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('usage', 32).notNullable();
    t.integer('last_value').notNullable();
    t.primary(['project_id', 'usage']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['internal_ids', 'project_statistics', 'custom_attributes', 'users_star_projects', 'project_group_links',
    'members', 'projects', 'namespace_ancestors', 'namespaces', 'personal_access_tokens', 'users']) {
    await knex.schema.dropTableIfExists(table);
  }
}
