// Line counts of a commit against the commit git diffs it with (its first parent, or nothing
// for a root or shallow-boundary commit: base_oid ''), as the contributors statistics count
// them. Keyed by object ids only, so a row is immutable and true for every repository holding
// those commits (forks included); `version` names the counting rules, so a change of rules
// leaves old rows unused instead of wrong. Rows are a cache: deleting any of them is safe.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('commit_stats', (t) => {
    t.string('commit_oid', 40).notNullable();
    t.string('base_oid', 40).notNullable();
    t.integer('version').notNullable();
    t.bigInteger('additions').notNullable();
    t.bigInteger('deletions').notNullable();
    t.primary(['commit_oid', 'base_oid', 'version']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('commit_stats');
}
