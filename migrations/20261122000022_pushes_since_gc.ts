// GitLab's projects.pushes_since_gc: pushes (git or API) since the repository was last
// garbage-collected; housekeeping picks its task from it and resets it after a gc
// (src/services/repository/housekeeping.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.integer('pushes_since_gc').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('pushes_since_gc');
  });
}
