// Merge requests. `target_project_id` is the project the MR belongs to (its iid counter,
// its permissions); `source_project_id` is the same project or a fork of it. The diff
// shown is fixed by three commit ids refreshed on every push to either branch:
// `head_sha` (source head), `start_sha` (target head) and `base_sha` (their merge base).
// `merge_status` caches the test merge of exactly `head_sha` into `merge_status_target_sha`,
// so a move of either branch invalidates it. Labels live in label_links
// (target_type 'merge_request'); notes, award emoji and subscriptions are polymorphic.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('merge_requests', (t) => {
    t.increments('id');
    t.integer('target_project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('iid').notNullable();
    t.integer('source_project_id').references('projects.id').onDelete('SET NULL');
    t.string('source_branch', 255).notNullable();
    t.string('target_branch', 255).notNullable();
    t.text('title').notNullable();
    t.text('description');
    t.string('state', 16).notNullable().defaultTo('opened');
    t.integer('author_id').references('users.id').onDelete('SET NULL');
    t.integer('assignee_id').references('users.id').onDelete('SET NULL');
    t.integer('milestone_id').references('milestones.id').onDelete('SET NULL');
    t.string('merge_status', 24).notNullable().defaultTo('unchecked');
    t.string('merge_status_target_sha', 40);
    t.string('head_sha', 40);
    t.string('start_sha', 40);
    t.string('base_sha', 40);
    t.integer('changes_count'); // files changed between base_sha and head_sha, null until computed
    t.string('merge_commit_sha', 40);
    t.boolean('merge_when_pipeline_succeeds').notNullable().defaultTo(false);
    t.integer('merge_user_id').references('users.id').onDelete('SET NULL');
    t.boolean('should_remove_source_branch');
    t.boolean('force_remove_source_branch');
    t.boolean('discussion_locked');
    t.boolean('allow_maintainer_to_push');
    t.integer('time_estimate').notNullable().defaultTo(0);
    t.integer('total_time_spent').notNullable().defaultTo(0);
    t.integer('user_notes_count').notNullable().defaultTo(0);
    t.integer('merged_by_id').references('users.id').onDelete('SET NULL');
    t.string('merged_at', 30);
    t.integer('closed_by_id').references('users.id').onDelete('SET NULL');
    t.string('closed_at', 30);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['target_project_id', 'iid']);
    t.index(['target_project_id', 'state', 'created_at']);
    t.index(['target_project_id', 'updated_at']);
    t.index(['target_project_id', 'target_branch', 'state']);
    t.index(['source_project_id', 'source_branch', 'state']);
    t.index(['author_id']);
    t.index(['assignee_id']);
    t.index(['milestone_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('merge_requests');
}
