// A running job's token is looked up by its digest on every git fetch a job makes with
// `gitlab-ci-token` (CI_REPOSITORY_URL): an index on ci_builds.token_digest, as GitLab's
// index_ci_builds_on_token.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ci_builds', (t) => t.index(['token_digest'], 'ci_builds_token_digest_index'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ci_builds', (t) => t.dropIndex(['token_digest'], 'ci_builds_token_digest_index'));
}
