// A new SQLite database is a copy of an empty one made at build time, not a replay of every
// migration (as Rails, and so GitLab, loads db/schema.rb into a new database instead of running
// its migrations): the replay costs a start-up 150–250 ms, the copy a few (start-up stays
// under 1 s). `make build` runs the migrations once into `dist/db/empty.sqlite3` and writes
// beside it a digest of the migration files it ran. A start on a missing database file copies
// it only while that digest still matches the migrations present (else it replays them as
// before), and migrate() runs afterwards as always, so a copy is never behind the code.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, migrationsDir, openDb } from './db.js';

/** Where `make build` leaves the empty database, beside the compiled migrations. */
export const TEMPLATE_FILE = path.join(migrationsDir, '..', 'db', 'empty.sqlite3');

const digestFileOf = (template: string) => `${template}.digest`;

/** A digest of the migration files knex runs (their names and contents, in order). */
function migrationsDigest(dir = migrationsDir): string {
  const hash = crypto.createHash('sha256');
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.js'))
    .sort()) {
    hash.update(`${name}\0`);
    hash.update(fs.readFileSync(path.join(dir, name)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Runs every migration into a new file and puts it at `template` (build time). */
export async function buildTemplate(template = TEMPLATE_FILE): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-template-'));
  try {
    const db = openDb(path.join(work, 'migrating.sqlite3'), 1);
    const packed = path.join(work, 'empty.sqlite3');
    try {
      await migrate(db);
      await db.raw('VACUUM INTO ?', [packed]);
    } finally {
      await db.destroy();
    }
    fs.mkdirSync(path.dirname(template), { recursive: true });
    const digest = migrationsDigest();
    fs.copyFileSync(packed, `${template}.${process.pid}.tmp`);
    fs.renameSync(`${template}.${process.pid}.tmp`, template);
    fs.writeFileSync(`${digestFileOf(template)}.${process.pid}.tmp`, `${digest}\n`);
    fs.renameSync(`${digestFileOf(template)}.${process.pid}.tmp`, digestFileOf(template));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The rows the migrations seed (the application settings row) are dated when the database is
 * made, as a replay would date them, not when the template was built.
 */
async function dateSeededRows(file: string): Promise<void> {
  const db = openDb(file, 1);
  try {
    const now = new Date().toISOString();
    const columns: { tbl: string; col: string }[] = await db.raw(
      `SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p
        WHERE m.type = 'table' AND p.name IN ('created_at', 'updated_at')`,
    );
    await db.transaction(async (tx) => {
      for (const { tbl, col } of columns) await tx(tbl).update({ [col]: now });
    });
  } finally {
    await db.destroy();
  }
}

/**
 * Makes the database `target` a copy of the template when `target` does not exist yet and the
 * template was made from the migrations present; true when it did. The copy is written under a
 * temporary name, flushed and linked into place, so a crash leaves either no database or a
 * whole one, and a database another process created meanwhile is never replaced.
 */
export async function createFromTemplate(target: string, template = TEMPLATE_FILE): Promise<boolean> {
  if (fs.existsSync(target) || fs.existsSync(`${target}-wal`)) return false;
  let recorded: string;
  try {
    recorded = fs.readFileSync(digestFileOf(template), 'utf8').trim();
  } catch {
    return false; // no template (a build by tsc alone): the migrations replay
  }
  if (recorded !== migrationsDigest()) return false;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.copyFileSync(template, tmp, fs.constants.COPYFILE_EXCL);
    await dateSeededRows(tmp);
    const fd = fs.openSync(tmp, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.linkSync(tmp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    for (const leftover of [tmp, `${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(leftover, { force: true });
  }
}
