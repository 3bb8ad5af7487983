// A PostgreSQL store as a SQLite file: every row of every Wharf table, read in one read-only
// REPEATABLE READ transaction (one instant, however long the copy takes, blocking no writer),
// written into a new SQLite file migrated by the same code (parents before children, ids kept).
// It is the database part of a backup made on PostgreSQL (services/backup/), so that a backup
// has one form whatever the engine: a restore onto PostgreSQL copies the file back with
// copySqliteToPostgres (store/copy.ts), onto SQLite it is the database.
import { migrate, openDb, type Db } from './db.js';
import { CopyError } from './copy.js';

/** Tables that are Knex's bookkeeping (each side has its own). */
const copied = (name: string) => !name.startsWith('knex_');
/** Rows the target's migrations seeded, replaced by the source's. */
const SEEDED_BY_MIGRATIONS = ['application_settings', 'job_stats', 'cache_epochs'];
const BATCH = 500;

/** The SQLite tables in foreign-key order, parents first (self-references ignored). */
async function sqliteTablesInOrder(db: Db): Promise<string[]> {
  const names: string[] = (await db.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)).map((r: { name: string }) => r.name).filter(copied);
  const virtual = new Set<string>((await db.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`)).map((r: { name: string }) => r.name));
  const real = names.filter((n) => !virtual.has(n) && ![...virtual].some((v) => n.startsWith(`${v}_`)));
  const parents = new Map<string, Set<string>>();
  for (const n of real) {
    const refs: { table: string }[] = await db.raw(`SELECT "table" FROM pragma_foreign_key_list(?)`, [n]);
    parents.set(n, new Set(refs.map((r) => r.table).filter((t) => t !== n)));
  }
  const ordered: string[] = [];
  while (ordered.length < real.length) {
    const ready = real.filter((n) => !ordered.includes(n) && [...parents.get(n)!].every((p) => ordered.includes(p) || !parents.has(p)));
    if (!ready.length) throw new CopyError('the foreign keys form a cycle');
    ordered.push(...ready);
  }
  return ordered;
}

/** PostgreSQL's JSON values come back parsed, and its 64-bit integers as text: SQLite takes them as text and numbers. */
function sqliteValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (Buffer.isBuffer(v) || typeof v !== 'object') return v;
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v);
}

/** Copies the PostgreSQL database `source` into a new SQLite file at `file` (which must not exist). */
export async function copyPostgresToSqlite(source: Db, file: string): Promise<void> {
  const target = openDb(file, 1);
  try {
    await migrate(target);
    const tables = await sqliteTablesInOrder(target);
    await source.transaction(
      async (read) => {
        await target.transaction(async (tx) => {
          for (const t of SEEDED_BY_MIGRATIONS) if (tables.includes(t)) await tx(t).del();
          for (const table of tables) {
            const columns: string[] = (await tx.raw(`SELECT name FROM pragma_table_info(?)`, [table])).map((c: { name: string }) => c.name);
            const keyed = columns.includes('id');
            let last: unknown = null;
            for (let offset = 0; ; offset += BATCH) {
              // Pages by id where there is one (offsets only for the few tables without).
              const page = read(table).select(columns).limit(BATCH);
              if (!keyed) page.orderByRaw('ctid').offset(offset);
              else if (last === null) page.orderBy('id');
              else page.orderBy('id').where('id', '>', last as number | string);
              const rows: Record<string, unknown>[] = await page;
              if (!rows.length) break;
              if (keyed) last = rows[rows.length - 1].id;
              const values = rows.map((r) => Object.fromEntries(columns.map((c) => [c, sqliteValue(r[c])])));
              await tx.raw('PRAGMA defer_foreign_keys = ON');
              await tx(table).insert(values);
            }
          }
          // The counter triggers counted the copied forks and issues on top of the copied counts.
          await tx('projects').update({
            forks_count: tx('projects as f').count('*').whereRaw('f.forked_from_id = projects.id'),
            open_issues_count: tx('issues as i').count('*').whereRaw('i.project_id = projects.id').where({ 'i.state': 'opened', 'i.confidential': false }),
          });
        });
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    );
  } finally {
    await target.destroy();
  }
}
