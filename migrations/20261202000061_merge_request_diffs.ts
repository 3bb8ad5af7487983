// A merge request's diff versions (GitLab 10.8's merge_request_diffs): one row each time its
// source or target branch moved, with the three commits that define the diff (head of the
// source, start: head of the target, base: their merge base), its state and size, so that
// review tools can anchor comments to a version. Open merge requests get their current
// version at migration time.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('merge_request_diffs', (t) => {
    t.increments('id');
    t.integer('merge_request_id').notNullable().references('merge_requests.id').onDelete('CASCADE');
    t.string('state', 16).notNullable();
    t.string('head_commit_sha', 40);
    t.string('base_commit_sha', 40);
    t.string('start_commit_sha', 40);
    t.string('real_size', 16);
    t.string('created_at', 30).notNullable();
    t.index(['merge_request_id', 'id']);
  });
  await knex.raw(
    `INSERT INTO merge_request_diffs (merge_request_id, state, head_commit_sha, base_commit_sha, start_commit_sha, real_size, created_at)
     SELECT id, 'collected', head_sha, base_sha, start_sha, CAST(changes_count AS TEXT), updated_at FROM merge_requests WHERE head_sha IS NOT NULL`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('merge_request_diffs');
}
