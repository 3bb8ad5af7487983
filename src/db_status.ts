// `npm run db:status`: the migrations of the database the server would open (WHARF_DB, read by
// src/config.ts as the server reads it), each applied (with when and in which batch) or
// pending, those a newer Wharf applied that this build does not have, and the totals. Reads
// only: a SQLite file that does not exist is reported, not created. Exits 0 with the report,
// 1 when the database cannot be read.
import fs from 'node:fs';
import { loadConfig } from './config.js';
import { isPostgresUrl, migrationsDir, openDb } from './store/db.js';
import { migrationFiles, migrationStatus, type AppliedMigration, type MigrationStatus } from './store/migration_status.js';

/** The database named for the report: a PostgreSQL URL without its password. */
function described(target: string): string {
  if (!isPostgresUrl(target)) return target;
  const url = new URL(target);
  if (url.password) url.password = '***';
  return url.toString();
}

function report(target: string, status: MigrationStatus): string[] {
  const width = Math.max(0, ...[...status.applied, ...status.unknown].map((m) => m.name.length), ...status.pending.map((n) => n.length));
  const line = (state: string, name: string, m?: AppliedMigration) =>
    `${state.padEnd(8)} ${m ? `${name.padEnd(width)}  ${m.at ?? '(time not recorded)'}  batch ${m.batch}` : name}`;
  const lines = [`database: ${described(target)}`];
  for (const m of status.applied) lines.push(line('applied', m.name, m));
  for (const name of status.pending) lines.push(line('pending', name));
  for (const m of status.unknown) lines.push(line('unknown', m.name, m));
  lines.push(`${status.applied.length} applied, ${status.pending.length} pending`);
  if (status.pending.length) lines.push('the pending migrations run when Wharf starts');
  if (status.unknown.length) {
    lines.push(`${status.unknown.length} applied by a newer Wharf, not in this build: this version refuses to start on this database`);
  }
  return lines;
}

async function main(): Promise<number> {
  const target = loadConfig().db;
  if (!isPostgresUrl(target) && !fs.existsSync(target)) {
    // Nothing to open: a start would create it and run every migration.
    const pending = migrationFiles(migrationsDir);
    console.log(report(target, { applied: [], pending, unknown: [] }).join('\n'));
    console.log('(the database file does not exist yet)');
    return 0;
  }
  const db = openDb(target, 1);
  try {
    console.log(report(target, await migrationStatus(db, migrationsDir)).join('\n'));
    return 0;
  } catch (err) {
    console.error(`db:status: the database ${described(target)} could not be read: ${(err as Error).message}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
