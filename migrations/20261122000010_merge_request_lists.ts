// Merge requests, second part (issue #5):
// - merge_requests.changes_overflow: the diff stored for the merge request hit GitLab's
//   limits (1000 files, 50,000 lines), so `changes_count` shows "<n>+", as
//   DiffCollection#real_size did;
// - indexes for the lists at scale: (target_project_id, created_at) and
//   (target_project_id, updated_at) already serve one project's default order when no state
//   is asked for; created_at alone serves GET /merge_requests across projects.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merge_requests', (t) => {
    t.boolean('changes_overflow').notNullable().defaultTo(false);
    t.index(['target_project_id', 'created_at'], 'merge_requests_target_project_created_at_index');
    t.index(['created_at'], 'merge_requests_created_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merge_requests', (t) => {
    t.dropIndex([], 'merge_requests_created_at_index');
    t.dropIndex([], 'merge_requests_target_project_created_at_index');
    t.dropColumn('changes_overflow');
  });
}
