// A job's (and an external commit status's) `coverage` as GitLab 10.8 keeps it: a double
// (Rails' float is PostgreSQL's double precision). Knex's float() made it a 4-byte `real` on
// PostgreSQL, which rounds what external CI posts and refuses values past 3.4e38 (a 500
// where 10.8 stores them). SQLite's REAL is a double already: nothing happens there.
import type { Knex } from 'knex';

function postgres(knex: Knex): boolean {
  return knex.client.dialect === 'postgresql';
}

export async function up(knex: Knex): Promise<void> {
  if (!postgres(knex)) return;
  await knex.raw('ALTER TABLE ci_builds ALTER COLUMN coverage TYPE double precision');
}

export async function down(knex: Knex): Promise<void> {
  if (!postgres(knex)) return;
  await knex.raw('ALTER TABLE ci_builds ALTER COLUMN coverage TYPE real');
}
