// Indexes for the issue lists at scale (100,000 issues in a project):
// - issues (project_id, created_at, confidential, author_id): the default order (created_at
//   desc, id desc) walks this index and stops after a page instead of sorting every issue of
//   the project (ties on created_at, rare, are sorted by id on the fly); and counting what a
//   guest may see (X-Total: not confidential, or authored) reads this index alone, no rows;
// - issues (project_id, state, created_at, confidential, author_id) replaces the index without
//   the last two columns (migration 000005): the same for `state=opened|closed`;
// - issues (created_at): the same for lists over many projects (/issues, group issues);
// - label_links (label_id, target_type, target_id) and award_emoji (user_id, name,
//   awardable_type, awardable_id): the `labels` and `my_reaction_emoji` filters read the ids
//   they keep from the index alone. Without them SQLite, which has no statistics here, prefers
//   the covering primary/unique keys and scans every link or award of every issue.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('issues', (t) => {
    t.index(['project_id', 'created_at', 'confidential', 'author_id'], 'issues_project_id_created_at_index');
    t.dropIndex([], 'issues_project_id_state_created_at_index');
    t.index(['project_id', 'state', 'created_at', 'confidential', 'author_id'], 'issues_project_id_state_created_at_visibility_index');
    t.index(['created_at'], 'issues_created_at_index');
  });
  await knex.schema.alterTable('label_links', (t) => {
    t.index(['label_id', 'target_type', 'target_id'], 'label_links_label_id_target_index');
  });
  await knex.schema.alterTable('award_emoji', (t) => {
    t.index(['user_id', 'name', 'awardable_type', 'awardable_id'], 'award_emoji_user_name_target_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('award_emoji', (t) => t.dropIndex([], 'award_emoji_user_name_target_index'));
  await knex.schema.alterTable('label_links', (t) => t.dropIndex([], 'label_links_label_id_target_index'));
  await knex.schema.alterTable('issues', (t) => {
    t.dropIndex([], 'issues_project_id_created_at_index');
    t.dropIndex([], 'issues_created_at_index');
    t.dropIndex([], 'issues_project_id_state_created_at_visibility_index');
    t.index(['project_id', 'state', 'created_at'], 'issues_project_id_state_created_at_index');
  });
}
