// PostgreSQL's counterpart of the SQLite FTS5 trigram index (migration 20261122000015): GIN
// trigram indexes (pg_trgm) on lower(title) and lower(description) of issues and merge
// requests, which serve exactly the `lower(column) LIKE '%word%'` conditions of the fuzzy
// search (src/finders/fuzzy.ts), so the finder keeps one query on PostgreSQL. pg_trgm ships
// with PostgreSQL (Debian's postgresql package, every managed service) and is a trusted
// extension: the database's owner may create it. Nothing happens on SQLite.
import type { Knex } from 'knex';

const COLUMNS: [table: string, column: string][] = [
  ['issues', 'title'],
  ['issues', 'description'],
  ['merge_requests', 'title'],
  ['merge_requests', 'description'],
];

function postgres(knex: Knex): boolean {
  return knex.client.dialect === 'postgresql';
}

export async function up(knex: Knex): Promise<void> {
  if (!postgres(knex)) return;
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  for (const [table, column] of COLUMNS) {
    await knex.raw(`CREATE INDEX ${table}_${column}_trgm ON ${table} USING gin (lower(${column}) gin_trgm_ops)`);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (!postgres(knex)) return;
  for (const [table, column] of COLUMNS) await knex.raw(`DROP INDEX IF EXISTS ${table}_${column}_trgm`);
}
