// src/store/template_db.ts: a new SQLite database copied from the empty one made at build time
// must be the very database the migrations make (every table, index, trigger and seeded row,
// the migrations recorded as run), and the copy must only happen to a database that does not
// exist yet, from a template made by the migrations present.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDb } from '../../src/store/db.js';
import { buildTemplate, createFromTemplate } from '../../src/store/template_db.js';

/** A row with its dates replaced by whether they are within the last minute. */
function undated(row: Record<string, unknown>): Record<string, unknown> {
  const out = { ...row };
  for (const col of ['created_at', 'updated_at']) {
    if (col in out) out[col] = Date.now() - Date.parse(String(out[col])) < 60_000 ? 'just now' : out[col];
  }
  return out;
}

/** Everything a database holds, in a comparable form. */
async function contents(file: string): Promise<{ schema: unknown[]; rows: Record<string, unknown[]> }> {
  const db = openDb(file, 1);
  try {
    const schema = await db.raw(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`);
    const rows: Record<string, unknown[]> = {};
    for (const { name } of schema as { type: string; name: string }[]) {
      if ((schema as { type: string; name: string }[]).find((s) => s.name === name)?.type !== 'table') continue;
      const all = await db.raw(`SELECT * FROM "${name}"`);
      // When the migrations ran differs from one run to the other; which ran, in which batch, does not.
      rows[name] = name === 'knex_migrations' ? all.map((r: { name: string; batch: number }) => [r.name, r.batch]) : all.map(undated);
    }
    return { schema, rows };
  } finally {
    await db.destroy();
  }
}

describe('a new SQLite database from the build-time template', function () {
  this.timeout(60_000);
  let dir: string;
  let template: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-template-test-'));
    template = path.join(dir, 'template', 'empty.sqlite3');
    await buildTemplate(template);
    // As if the template had been built long ago: the copy must still be dated when made.
    const old = openDb(template, 1);
    await old('application_settings').update({ created_at: '2000-01-01T00:00:00.000Z', updated_at: '2000-01-01T00:00:00.000Z' });
    await old.destroy();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is the database the migrations make, and migrate() finds nothing left to run', async () => {
    const copied = path.join(dir, 'copied', 'wharf.sqlite3');
    expect(await createFromTemplate(copied, template)).to.equal(true);
    const replayed = path.join(dir, 'replayed.sqlite3');
    const db = openDb(replayed, 1);
    await migrate(db);
    await db.destroy();

    const fromCopy = await contents(copied);
    expect(fromCopy.schema.length).to.be.greaterThan(50);
    expect(fromCopy.rows.knex_migrations.length).to.be.greaterThan(30);
    const fromReplay = await contents(replayed);
    expect(fromCopy.schema).to.deep.equal(fromReplay.schema);
    for (const table of Object.keys(fromReplay.rows)) expect(fromCopy.rows[table], table).to.deep.equal(fromReplay.rows[table]);
    expect(Object.keys(fromCopy.rows)).to.deep.equal(Object.keys(fromReplay.rows));

    const again = openDb(copied, 1);
    try {
      const [, pending] = await again.migrate.list({ directory: path.resolve('dist/migrations'), loadExtensions: ['.js'] });
      expect(pending).to.deep.equal([]);
      expect(await again.raw('PRAGMA journal_mode')).to.deep.equal([{ journal_mode: 'wal' }]);
    } finally {
      await again.destroy();
    }
    expect(fs.readdirSync(path.dirname(copied)).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('never replaces a database that exists', async () => {
    const existing = path.join(dir, 'existing.sqlite3');
    fs.writeFileSync(existing, 'not to be touched');
    expect(await createFromTemplate(existing, template)).to.equal(false);
    expect(fs.readFileSync(existing, 'utf8')).to.equal('not to be touched');
  });

  it('is not used when the migrations changed since it was made, nor when there is none', async () => {
    const stale = path.join(dir, 'stale', 'empty.sqlite3');
    fs.mkdirSync(path.dirname(stale), { recursive: true });
    fs.copyFileSync(template, stale);
    fs.writeFileSync(`${stale}.digest`, `${'0'.repeat(64)}\n`);
    const target = path.join(dir, 'from-stale.sqlite3');
    expect(await createFromTemplate(target, stale)).to.equal(false);
    expect(fs.existsSync(target)).to.equal(false);
    expect(await createFromTemplate(target, path.join(dir, 'nowhere', 'empty.sqlite3'))).to.equal(false);
    expect(fs.existsSync(target)).to.equal(false);
  });
});
