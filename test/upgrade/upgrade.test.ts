// Upgrading: a database made and filled by an early Wharf, started on by today's, is migrated
// at start to today's schema with its data intact, on SQLite and on PostgreSQL (the engine of
// the run). The old migrations are kept as their commits had them (test/fixtures/
// migrations_<commit>/), applied to an empty database, filled by SQL as that Wharf's services
// wrote (old_rows.ts, old_issuables.ts), then the real server starts on it: every migration of
// today must be recorded as run (the old ones in the first batch, the others in the start's),
// the schema must be the one a new database gets, and the API must answer the old rows as
// GitLab 10.8 does (a private project stays 404 to a non-member) and keep counting after them.
//
// Which old sets. This repository has no release tags; its first commit with migrations is
// 1d1d2f6 (the skeleton), whose 000001_foundation lacked project_statistics: the next commit,
// eight minutes later, added it to that same file, so a database made by the skeleton never
// gets the table, and migration 000026 (triggers on it) fails on it. That set cannot be
// upgraded, and no Wharf that could serve a project ran it. The sets used:
// - 95932bc: the oldest that can be upgraded, the foundation alone (users, tokens, namespaces,
//   projects, members, shares, stars, custom attributes, statistics, iid counters);
// - 7b79bdc: main at the end of the first day, unchanged for a day and a half (twelve
//   migrations: protected branches, labels, milestones, issues, notes, award emoji, merge
//   requests, events, to-dos, the search index). Its 000015 was edited later (how it tells
//   the engines apart), so that file is kept as it was. Later sets differ from today's files
//   only by comments, or in migrations this set already covers.
import { expect } from 'chai';
import type { Knex } from 'knex';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, migrationsDir, openDb } from '../../src/store/db.js';
import { migrationFiles, migrationStatus } from '../../src/store/migration_status.js';
import { bootServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase } from '../helpers/test_db.js';
import { emptyDatabase, migrateAsOf, oldMigrationsDir, type EmptyDatabase } from './old_schema.js';
import { fillFoundation, type OldWorld } from './old_rows.js';
import { fillFirstDay } from './old_issuables.js';
import { schemaShape, type SchemaShape } from './schema_shape.js';
import { expectFirstDayRead, expectFoundationRead, expectWritesCarryOn } from './old_reads.js';

interface OldSet {
  commit: string;
  fill(db: Knex, reposDir: string): Promise<OldWorld>;
  reads(s: TestServer, world: OldWorld): Promise<void>;
  /** The iid the next issue of platform/app gets. */
  nextIssueIid: number;
}

const SETS: OldSet[] = [
  { commit: '95932bc', fill: fillFoundation, reads: expectFoundationRead, nextIssueIid: 1 },
  {
    commit: '7b79bdc',
    fill: async (db, reposDir) => fillFirstDay(db, await fillFoundation(db, reposDir)),
    reads: async (s, world) => {
      await expectFoundationRead(s, world);
      await expectFirstDayRead(s, world);
    },
    nextIssueIid: 3,
  },
];

/** The schema of a new database of the engine under test, migrated by today's migrations. */
async function freshShape(dir: string): Promise<SchemaShape> {
  const database = await createTestDatabase(fs.mkdtempSync(path.join(dir, 'fresh-')));
  const db = openDb(database.target, 1);
  try {
    await migrate(db);
    return await schemaShape(db);
  } finally {
    await db.destroy();
    await database.drop();
  }
}

for (const set of SETS) {
  describe(`upgrading a database made by the migrations of ${set.commit}`, function () {
    this.timeout(180_000);
    let dir: string;
    let database: EmptyDatabase;
    let world: OldWorld;
    let s: TestServer;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-upgrade-'));
      database = await emptyDatabase(dir);
      const old = await migrateAsOf(database.target, set.commit);
      try {
        world = await set.fill(old, path.join(dir, 'repos'));
      } finally {
        await old.destroy();
      }
      s = await bootServer({ WHARF_DB: database.target, WHARF_REPOS: path.join(dir, 'repos') });
    });

    after(async () => {
      await s?.close();
      await database?.drop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("has run every migration of today's, the old ones first and the others at start", async () => {
      const status = await migrationStatus(s.db, migrationsDir);
      expect(status.pending, 'pending').to.deep.equal([]);
      expect(status.unknown, 'unknown').to.deep.equal([]);
      expect(status.applied.map((m) => m.name)).to.deep.equal(migrationFiles(migrationsDir));
      const old = migrationFiles(oldMigrationsDir(set.commit));
      expect(status.applied.filter((m) => m.batch === 1).map((m) => m.name)).to.deep.equal(old);
      expect(status.applied.filter((m) => m.batch === 2)).to.have.length(migrationFiles(migrationsDir).length - old.length);
    });

    it('has the schema a new database gets', async () => {
      const upgraded = await schemaShape(s.db);
      const fresh = await freshShape(dir);
      // Only what differs, so that a failure names the tables, indexes or triggers.
      const differing = [...new Set([...Object.keys(upgraded), ...Object.keys(fresh)])].filter((k) => JSON.stringify(upgraded[k]) !== JSON.stringify(fresh[k]));
      const of = (shape: SchemaShape) => Object.fromEntries(differing.map((k) => [k, shape[k] ?? 'missing']));
      expect(of(upgraded), 'the upgraded schema').to.deep.equal(of(fresh));
      expect(Object.keys(upgraded).length).to.be.greaterThan(100);
    });

    it('answers the old rows through the API as before', async () => {
      await set.reads(s, world);
    });

    it('carries on after the old rows: ids, iids, counters', async () => {
      await expectWritesCarryOn(s, world, set.nextIssueIid);
    });
  });
}
