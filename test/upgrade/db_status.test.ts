// `npm run db:status` (dist/src/db_status.js) on the database WHARF_DB names, as the server
// reads it: every migration applied (with when and its batch) or pending, those only a newer
// Wharf has, and the totals; exit 0, and nothing written, not even a missing SQLite file. A
// database it cannot reach is exit 1 with the reason, and a PostgreSQL password is never printed.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, migrationsDir, openDb } from '../../src/store/db.js';
import { migrationFiles } from '../../src/store/migration_status.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/test_db.js';
import { runProgram } from './run_program.js';

const FUTURE = '20991231000099_from_the_future.js';

/** The migration lines of the report: [state, name, rest]. */
function rowsOf(stdout: string): string[][] {
  return stdout
    .split('\n')
    .map((line) => /^(applied|pending|unknown) +(\S+)(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], m[2], m[3].trim()]);
}

describe('npm run db:status', function () {
  this.timeout(60_000);
  const files = migrationFiles(migrationsDir);
  let dir: string;
  let database: TestDatabase;

  const status = (target = database.target) => runProgram('db_status', { WHARF_DB: target });

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-status-'));
    database = await createTestDatabase(dir);
  });

  afterEach(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function migrated(change?: (db: ReturnType<typeof openDb>) => Promise<void>): Promise<void> {
    const db = openDb(database.target, 1);
    try {
      await migrate(db);
      await change?.(db);
    } finally {
      await db.destroy();
    }
  }

  it('lists every migration applied, with when and its batch, and the totals', async () => {
    await migrated();
    const run = await status();
    expect(run.code, run.stderr).to.equal(0);
    const rows = rowsOf(run.stdout);
    expect(rows.map((r) => r[1])).to.deep.equal(files);
    for (const [state, , rest] of rows) {
      expect(state).to.equal('applied');
      expect(rest).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}batch 1$/);
    }
    expect(run.stdout).to.contain(`\n${files.length} applied, 0 pending\n`);
    expect(run.stdout).not.to.contain('newer Wharf');
  });

  it('lists the pending ones and those of a newer Wharf, and migrates nothing', async () => {
    await migrated(async (db) => {
      await db('knex_migrations')
        .where({ name: files.at(-1) })
        .delete();
      await db('knex_migrations').insert({ name: FUTURE, batch: 2, migration_time: new Date() });
    });
    const run = await status();
    expect(run.code, run.stderr).to.equal(0);
    const rows = rowsOf(run.stdout);
    expect(rows.filter((r) => r[0] === 'pending').map((r) => r[1])).to.deep.equal([files.at(-1)]);
    expect(rows.filter((r) => r[0] === 'unknown').map((r) => r[1])).to.deep.equal([FUTURE]);
    expect(rows.filter((r) => r[0] === 'applied')).to.have.length(files.length - 1);
    expect(run.stdout).to.contain(`\n${files.length - 1} applied, 1 pending\n`);
    expect(run.stdout).to.contain('1 applied by a newer Wharf, not in this build: this version refuses to start on this database');
    const again = await status();
    expect(again.stdout).to.equal(run.stdout);
  });

  it('on SQLite, reports a missing database file as all pending and does not create it', async function () {
    if (testEngine() !== 'sqlite') this.skip();
    const run = await status();
    expect(run.code, run.stderr).to.equal(0);
    expect(rowsOf(run.stdout)).to.deep.equal(files.map((name) => ['pending', name, '']));
    expect(run.stdout).to.contain(`\n0 applied, ${files.length} pending\n`);
    expect(fs.existsSync(database.target)).to.equal(false);
    expect(fs.existsSync(path.dirname(database.target))).to.equal(false);
  });

  it('on PostgreSQL, answers exit 1 with the reason for a database it cannot read, password hidden', async function () {
    if (testEngine() !== 'postgres') this.skip();
    const url = new URL(database.target);
    url.pathname = '/wharf_no_such_database';
    url.username = 'postgres';
    url.password = 'sesame-open';
    const run = await status(url.toString());
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/^db:status: the database postgres:\/\/postgres:\*\*\*@[^/]+\/wharf_no_such_database could not be read: /);
    expect(run.stderr).to.contain('does not exist');
    expect(run.stdout + run.stderr).not.to.contain('sesame-open');
  });
});
