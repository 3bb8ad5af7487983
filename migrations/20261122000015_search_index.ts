// Trigram full-text indexes of issue and merge request titles and descriptions (SQLite FTS5),
// so that `search=word` finds its candidates without reading every title and description
// (src/finders/issuable_filters.ts). External-content tables kept current by triggers
// (cascaded deletes fire them too). PostgreSQL keeps plain LIKE (pg_trgm would be its
// equivalent).
import type { Knex } from 'knex';

const TABLES = ['issues', 'merge_requests'];

function sqlite(knex: Knex): boolean {
  // By dialect rather than by the configured client name: the PostgreSQL client is a subclass
  // (src/store/db.ts) whose name is not 'pg'. SQLite's answer is unchanged; PostgreSQL's
  // trigram index is migration 20261122000018.
  return knex.client.dialect === 'sqlite3';
}

export async function up(knex: Knex): Promise<void> {
  if (!sqlite(knex)) return;
  for (const t of TABLES) {
    const s = `${t}_search`;
    await knex.raw(`CREATE VIRTUAL TABLE ${s} USING fts5(title, description, content='${t}', content_rowid='id', tokenize='trigram')`);
    await knex.raw(`CREATE TRIGGER ${s}_insert AFTER INSERT ON ${t} BEGIN
      INSERT INTO ${s}(rowid, title, description) VALUES (new.id, new.title, new.description); END`);
    await knex.raw(`CREATE TRIGGER ${s}_delete AFTER DELETE ON ${t} BEGIN
      INSERT INTO ${s}(${s}, rowid, title, description) VALUES ('delete', old.id, old.title, old.description); END`);
    await knex.raw(`CREATE TRIGGER ${s}_update AFTER UPDATE OF title, description ON ${t} BEGIN
      INSERT INTO ${s}(${s}, rowid, title, description) VALUES ('delete', old.id, old.title, old.description);
      INSERT INTO ${s}(rowid, title, description) VALUES (new.id, new.title, new.description); END`);
    await knex.raw(`INSERT INTO ${s}(${s}) VALUES ('rebuild')`);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (!sqlite(knex)) return;
  for (const t of TABLES) {
    const s = `${t}_search`;
    for (const op of ['insert', 'delete', 'update']) await knex.raw(`DROP TRIGGER IF EXISTS ${s}_${op}`);
    await knex.raw(`DROP TABLE IF EXISTS ${s}`);
  }
}
