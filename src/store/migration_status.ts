// Which migrations a database has run, compared with the ones this build ships: what
// `npm run db:status` prints, and what a start checks before migrating. A database that ran a
// migration this build does not have was migrated by a newer Wharf; migrating it would run
// older code on a newer schema (Knex's own answer, "The migration directory is corrupt", does
// not say so), so a start refuses it (NewerSchemaError) before it writes anything. Only reads:
// a database without Knex's table has run nothing.
import fs from 'node:fs';
import type { Knex } from 'knex';

/** Knex's record of the migrations run (its default table name). */
const MIGRATIONS_TABLE = 'knex_migrations';

export interface AppliedMigration {
  name: string;
  batch: number;
  /** When Knex ran it (its `migration_time`), as an ISO string; null when not recorded. */
  at: string | null;
}

export interface MigrationStatus {
  /** Run, and shipped in this build, in the order they ran. */
  applied: AppliedMigration[];
  /** Shipped in this build and not run yet, in the order they will run. */
  pending: string[];
  /** Run, but not shipped in this build: a newer Wharf's. */
  unknown: AppliedMigration[];
}

/** The migration files of `dir` as Knex lists them: the compiled .js files, sorted by name. */
export function migrationFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .sort();
}

function isoOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  // PostgreSQL's timestamptz arrives as a Date; SQLite keeps Knex's number of milliseconds.
  const date = value instanceof Date ? value : new Date(typeof value === 'number' ? value : String(value));
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}

export async function migrationStatus(db: Knex, dir: string): Promise<MigrationStatus> {
  const files = migrationFiles(dir);
  const rows: { name: string; batch: number; migration_time: unknown }[] = (await db.schema.hasTable(MIGRATIONS_TABLE))
    ? await db(MIGRATIONS_TABLE).select('name', 'batch', 'migration_time').orderBy('id')
    : [];
  const ran = rows.map((r) => ({ name: r.name, batch: Number(r.batch), at: isoOf(r.migration_time) }));
  const shipped = new Set(files);
  const done = new Set(ran.map((r) => r.name));
  return {
    applied: ran.filter((r) => shipped.has(r.name)),
    pending: files.filter((name) => !done.has(name)),
    unknown: ran.filter((r) => !shipped.has(r.name)),
  };
}

/** A start on a database a newer Wharf migrated: the message says which migrations and what to do. */
export class NewerSchemaError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `This database was migrated by a newer Wharf: it has run ${unknown.length === 1 ? 'a migration' : `${unknown.length} migrations`} ` +
        `this version does not have (${unknown.join(', ')}). Wharf does not start on a schema newer than it knows, and has ` +
        `changed nothing. Run the newer Wharf (that version or a later one) on this database, or restore a backup made by ` +
        `this version; \`npm run db:status\` lists what the database has run.`,
    );
    this.name = 'NewerSchemaError';
  }
}

/** Throws NewerSchemaError when `db` has run migrations that `dir` does not hold. */
export async function refuseNewerSchema(db: Knex, dir: string): Promise<void> {
  const { unknown } = await migrationStatus(db, dir);
  if (unknown.length) throw new NewerSchemaError(unknown.map((m) => m.name));
}
