// Jobs that must run one at a time per group (a webhook's deliveries: one in flight per hook,
// so a receiver that hangs holds one delivery slot, never the queue's): the group's key on the
// job row, and an index for the claim's "no running job of this group" check.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.string('group_key', 100).nullable();
    t.index(['state', 'group_key'], 'jobs_state_group_key_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropIndex(['state', 'group_key'], 'jobs_state_group_key_index');
    t.dropColumn('group_key');
  });
}
