// A database's schema in a comparable form, to check that a database migrated step by step
// across versions ends with the schema a new database gets: every table's columns (type,
// nullability, default), indexes (columns, uniqueness), foreign keys and triggers, by name.
// On SQLite from its catalogue pragmas (the CREATE text differs with how a table was made), on
// PostgreSQL from its canonical definitions.
import type { Knex } from 'knex';
import { isSqlite } from '../../src/store/db.js';

export type SchemaShape = Record<string, string[]>;

async function sqliteShape(db: Knex): Promise<SchemaShape> {
  const shape: SchemaShape = {};
  const objects: { type: string; name: string; tbl_name: string }[] = await db.raw(`SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name`);
  for (const o of objects) {
    if (o.type === 'table') {
      const columns: Record<string, unknown>[] = await db.raw(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`, [o.name]);
      const keys: Record<string, unknown>[] = await db.raw(`SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)`, [o.name]);
      shape[`table ${o.name}`] = [
        ...columns.map((c) => `column ${c.name} ${c.type} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk}`),
        ...keys.map((k) => `foreign key ${k.from} -> ${k.table}.${k.to} on delete ${k.on_delete}`),
      ].sort();
    } else if (o.type === 'index') {
      const columns: { name: string | null }[] = await db.raw(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`, [o.name]);
      const [list] = (await db.raw(`SELECT "unique" FROM pragma_index_list(?) WHERE name = ?`, [o.tbl_name, o.name])) as { unique: number }[];
      // An index on an expression (lower(name)) has a null column name.
      shape[`index ${o.name}`] = [`on ${o.tbl_name} (${columns.map((c) => c.name ?? '<expression>').join(', ')}) unique=${list?.unique}`];
    } else {
      shape[`${o.type} ${o.name}`] = [`on ${o.tbl_name}`];
    }
  }
  return shape;
}

async function postgresShape(db: Knex): Promise<SchemaShape> {
  const shape: SchemaShape = {};
  const { rows: columns } = await db.raw(
    `SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  for (const c of columns) {
    (shape[`table ${c.table_name}`] ??= []).push(`column ${c.column_name} ${c.data_type}(${c.character_maximum_length}) nullable=${c.is_nullable} default=${c.column_default}`);
  }
  const { rows: constraints } = await db.raw(
    `SELECT t.relname AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
  );
  for (const c of constraints) (shape[`table ${c.tbl}`] ??= []).push(`constraint ${c.conname} ${c.def}`);
  for (const key of Object.keys(shape)) shape[key].sort();
  const { rows: indexes } = await db.raw(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`);
  for (const i of indexes) shape[`index ${i.indexname}`] = [i.indexdef];
  const { rows: triggers } = await db.raw(
    `SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
  );
  for (const t of triggers) shape[`trigger ${t.tgname}`] = [`on ${t.relname}`];
  const { rows: functions } = await db.raw(`SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`);
  for (const f of functions) shape[`function ${f.proname}`] = ['defined'];
  return shape;
}

export function schemaShape(db: Knex): Promise<SchemaShape> {
  return isSqlite(db) ? sqliteShape(db) : postgresShape(db);
}
