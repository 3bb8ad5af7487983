// The built-in runner's lease on a running job (src/services/ci/runner/): which runner process
// holds it and until when. A process renews its jobs' leases while they run; a job whose lease
// expired (its process died) is found by the next claim and failed, as GitLab's
// StuckCiJobsWorker drops jobs whose runner went silent. The pickup index serves "the oldest
// pending job of type Ci::Build".
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ci_builds', (t) => {
    t.string('runner_owner', 128);
    t.string('lease_until');
    t.index(['type', 'status', 'id'], 'ci_builds_pickup');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ci_builds', (t) => {
    t.dropIndex(['type', 'status', 'id'], 'ci_builds_pickup');
    t.dropColumn('runner_owner');
    t.dropColumn('lease_until');
  });
}
