// GitLab 10.8 keeps a merge request's `merge_params` (the commit message and the source-branch
// removal asked for with merge_when_pipeline_succeeds) so that the merge run when the pipeline
// succeeds uses them. `should_remove_source_branch` already has its column; this adds the
// commit message.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merge_requests', (t) => {
    t.text('merge_commit_message').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merge_requests', (t) => {
    t.dropColumn('merge_commit_message');
  });
}
