// A Wharf started on a database that a newer Wharf migrated (knex_migrations names migrations
// this build does not ship) refuses to start: exit code 1 and one fatal log line naming the
// unknown migrations and what to do (run the newer Wharf, or restore a backup), before it writes
// anything: no migration run or recorded, no root user or token, no repository folder, no key
// or secret file. Knex alone would fail later with "The migration directory is corrupt". The
// real program (dist/src/main.js) in one process and as a cluster of workers, on the engine of
// the run; and migrate() itself, which db:copy and the template build share, refuses the same.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDb } from '../../src/store/db.js';
import { NewerSchemaError } from '../../src/store/migration_status.js';
import { freePort } from '../helpers/free_port.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test_db.js';
import { runProgram } from './run_program.js';

const UNKNOWN = ['20991231000098_from_the_future.js', '20991231000099_and_another.js'];

interface Snapshot {
  migrations: unknown[];
  users: number;
  tokens: number;
}

async function snapshot(target: string): Promise<Snapshot> {
  const db = openDb(target, 1);
  try {
    const migrations = await db('knex_migrations').orderBy('id').select('name', 'batch');
    const count = async (table: string) => Number((await db(table).count({ n: '*' }).first())?.n);
    return { migrations, users: await count('users'), tokens: await count('personal_access_tokens') };
  } finally {
    await db.destroy();
  }
}

describe('a start on a database migrated by a newer Wharf', function () {
  this.timeout(120_000);
  let dir: string;
  let database: TestDatabase;
  let before: Snapshot;

  const start = async (workers: string) =>
    runProgram('main', {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      WHARF_DB: database.target,
      WHARF_REPOS: path.join(dir, 'repos'),
      WHARF_WORKERS: workers,
      WHARF_SSH_PORT: '0',
      WHARF_SSH_HOST_KEY: path.join(dir, 'keys', 'ssh_host_ed25519_key'),
      WHARF_SERVER_SECRET: path.join(dir, 'keys', 'server_secret'),
      WHARF_ROOT_TOKEN: 'root-token-that-must-not-be-stored',
      WHARF_JOB_CONCURRENCY: '0',
      WHARF_LOG_LEVEL: 'warn',
    });

  const expectRefused = (exit: { code: number | null; stdout: string; stderr: string }) => {
    expect(exit.code, `${exit.stdout}${exit.stderr}`).to.equal(1);
    const fatal = exit.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.level === 60);
    expect(fatal, exit.stdout).to.have.length(1);
    expect(fatal[0].unknownMigrations).to.deep.equal(UNKNOWN);
    expect(fatal[0].msg).to.equal(new NewerSchemaError(UNKNOWN).message);
    expect(fatal[0].msg).to.contain(`(${UNKNOWN.join(', ')})`);
    expect(fatal[0].msg).to.match(/newer Wharf/);
    expect(fatal[0].msg).to.match(/restore a backup/);
  };

  const expectNothingWritten = async () => {
    expect(await snapshot(database.target)).to.deep.equal(before);
    expect(fs.existsSync(path.join(dir, 'repos')), 'repository folder').to.equal(false);
    expect(fs.existsSync(path.join(dir, 'keys')), 'key and secret files').to.equal(false);
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-newer-'));
    database = await createTestDatabase(dir);
    const db = openDb(database.target, 1);
    try {
      await migrate(db);
      // One migration of today's is also left unrun: the refusal comes before migrating it.
      const last = await db('knex_migrations').orderBy('id', 'desc').first('id', 'name');
      await db('knex_migrations').where({ id: last.id }).delete();
      await db('knex_migrations').insert(UNKNOWN.map((name) => ({ name, batch: 2, migration_time: new Date() })));
    } finally {
      await db.destroy();
    }
    before = await snapshot(database.target);
  });

  afterEach(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses in one process, says why and what to do, and writes nothing', async () => {
    expectRefused(await start('1'));
    await expectNothingWritten();
  });

  it('refuses as a cluster of workers: the first worker refuses and the primary stops', async () => {
    const exit = await start('2');
    expectRefused(exit);
    expect(exit.stdout).to.contain('before it was ready; stopping');
    await expectNothingWritten();
  });

  it('is refused by migrate() itself, before Knex runs anything', async () => {
    const db = openDb(database.target, 1);
    try {
      const err = await migrate(db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(NewerSchemaError);
      expect((err as NewerSchemaError).unknown).to.deep.equal(UNKNOWN);
    } finally {
      await db.destroy();
    }
    await expectNothingWritten();
  });
});
