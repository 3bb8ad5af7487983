// What a restore refuses before writing anything where a server reads, each with a message that
// names the part: one byte changed in a file of each part in turn, a truncated archive, an
// archive whose gzip stream is damaged, a newer Wharf's backup (its database has a migration
// this one does not know), a target that is not empty, and `--skip`'s partial backups (a
// backup without its db part cannot make a server). Also: scheduled backups run once per moment
// across processes, and the newest WHARF_BACKUP_KEEP are kept.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { bootServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase } from '../helpers/test_db.js';
import { tempDir } from '../transport/git_client.js';
import { openDb } from '../../src/store/db.js';
import { createBackup } from '../../src/services/backup/create.js';
import { pruneBackups, queueScheduledBackup, SCHEDULED_BACKUP_JOB } from '../../src/services/backup/schedule.js';
import { dataEnv, runTool } from './tools.js';
import { issueLfsToken } from '../../src/services/lfs/tokens.js';

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('backup refusals and schedules', function () {
  this.timeout(120_000);
  let dir: string;
  let s: TestServer;
  let archive: string;

  before(async () => {
    dir = tempDir('wharf-backup-refusals-');
    const db = await createTestDatabase(dir);
    s = await bootServer({ ...dataEnv(dir, db.target), WHARF_JOB_CONCURRENCY: '0' });
    const alice = await s.createUser('alice');
    const p = (await s.post('/projects', { token: alice.token, json: { name: 'p', visibility: 'private' } })).body;
    await s.post(`/projects/${p.id}/repository/commits`, {
      token: alice.token,
      json: { branch: 'master', commit_message: 'a', actions: [{ action: 'create', file_path: 'a.txt', content: 'a\n' }] },
    });
    const body = Buffer.from('an lfs object\n');
    const oid = crypto.createHash('sha256').update(body).digest('hex');
    await fetch(`${s.url}/${p.path_with_namespace}.git/gitlab-lfs/objects/${oid}/${body.length}`, {
      method: 'PUT',
      headers: { Authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}` },
      body,
    });
    const form = new FormData();
    form.append('file', new Blob(['an uploaded file\n']), 'notes.txt');
    const uploaded = await fetch(`${s.url}/api/v4/projects/${p.id}/uploads`, { method: 'POST', headers: { 'PRIVATE-TOKEN': alice.token }, body: form });
    expect(uploaded.status).to.equal(201);
    const traces = path.join(dir, 'repos', '@wharf', 'ci', 'traces', String(p.id));
    fs.mkdirSync(traces, { recursive: true });
    fs.writeFileSync(path.join(traces, '1.log'), 'a job log\n');
    const artifacts = path.join(dir, 'repos', '@wharf', 'ci', 'artifacts', String(p.id), '1');
    fs.mkdirSync(artifacts, { recursive: true });
    fs.writeFileSync(path.join(artifacts, 'artifacts.zip'), 'PK not really\n');
    issueLfsToken(s.deps.config, { kind: 'user', id: alice.user.id }); // the server secret is made on first use
    archive = (await createBackup(s.deps, { dir: path.join(dir, 'backups') })).file;
  });
  after(async () => s?.close());

  /** The archive unpacked, changed by `change`, packed again. */
  async function altered(change: (root: string) => Promise<void> | void): Promise<string> {
    const root = tempDir('wharf-altered-');
    await tar.x({ file: archive, cwd: root });
    await change(root);
    const out = path.join(tempDir(), 'altered.tar.gz');
    await tar.c({ gzip: true, cwd: root, file: out, portable: true }, fs.readdirSync(root));
    return out;
  }

  async function refused(file: string, message: string | RegExp): Promise<void> {
    const fresh = tempDir('wharf-restore-target-');
    const env = dataEnv(fresh, path.join(fresh, 'db', 'wharf.sqlite3'));
    const r = await runTool('restore.js', [file], env);
    expect(r.code, r.stdout).to.equal(1);
    if (typeof message === 'string') expect(r.stderr).to.include(message);
    else expect(r.stderr).to.match(message);
    // Nothing was written where a server reads.
    expect(fs.readdirSync(fresh)).to.deep.equal([]);
  }

  it('refuses a byte changed in any part, naming it', async () => {
    const manifest = JSON.parse(
      fs.readFileSync(
        await altered(() => undefined).then(async (f) => {
          const root = tempDir();
          await tar.x({ file: f, cwd: root });
          return path.join(root, 'manifest.json');
        }),
        'utf8',
      ),
    );
    for (const part of ['db', 'repositories', 'builds', 'artifacts', 'lfs', 'uploads', 'secrets']) {
      const victim = manifest.files.find((f: any) => f.part === part && f.size > 0);
      expect(victim, part).to.not.equal(undefined);
      const file = await altered((root) => {
        const p = path.join(root, victim.path);
        const bytes = fs.readFileSync(p);
        bytes[Math.floor(bytes.length / 2)] ^= 0x01;
        fs.writeFileSync(p, bytes);
      });
      await refused(file, `The ${part} part is damaged: ${victim.path} does not match its checksum.`);
    }
  });

  it('refuses a truncated archive, a damaged gzip stream, a file missing or added, and a newer schema', async () => {
    const whole = fs.readFileSync(archive);
    const cut = path.join(tempDir(), 'cut.tar.gz');
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await refused(cut, /refused: The archive is damaged or truncated in the \w+ part \(at /);
    const flipped = path.join(tempDir(), 'flipped.tar.gz');
    const copy = Buffer.from(whole);
    copy[Math.floor(copy.length / 3)] ^= 0xff;
    fs.writeFileSync(flipped, copy);
    await refused(flipped, /refused: The (archive is damaged or truncated|\w+ part is (damaged|incomplete))/);
    await refused(await altered((root) => fs.rmSync(path.join(root, 'manifest.json'))), 'The archive has no manifest: it is truncated, or not a Wharf backup.');
    await refused(
      await altered((root) => fs.writeFileSync(path.join(root, 'repositories', 'extra.txt'), 'x')),
      'The repositories part is damaged: repositories/extra.txt is not in the manifest.',
    );
    await refused(
      await altered((root) => {
        const m = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8'));
        const lfs = m.files.find((f: any) => f.part === 'lfs');
        fs.rmSync(path.join(root, lfs.path));
      }),
      /The lfs part is incomplete: lfs\/.+ is missing/,
    );
    await refused(
      await altered(async (root) => {
        const db = openDb(path.join(root, 'db', 'wharf.sqlite3'), 1);
        await db('knex_migrations').insert({ name: '20991231000000_from_the_future.js', batch: 99, migration_time: new Date().toISOString() });
        await db.destroy();
        const m = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8'));
        const entry = m.files.find((f: any) => f.path === 'db/wharf.sqlite3');
        entry.sha256 = sha(path.join(root, 'db', 'wharf.sqlite3'));
        entry.size = fs.statSync(path.join(root, 'db', 'wharf.sqlite3')).size;
        m.migrations.push('20991231000000_from_the_future.js');
        m.parts.db = { ...m.parts.db, sha256: crypto.createHash('sha256').update(`${entry.path}\0${entry.sha256}\0`).digest('hex') };
        fs.writeFileSync(path.join(root, 'manifest.json'), JSON.stringify(m));
      }),
      /The db part comes from a newer Wharf \([^)]+\): its database has migrations this version does not know \(20991231000000_from_the_future\.js\)/,
    );
  });

  it('refuses a target that is not empty, and a backup made without its db part', async () => {
    const fresh = tempDir('wharf-restore-filled-');
    fs.mkdirSync(path.join(fresh, 'repos', 'someone'), { recursive: true });
    const r = await runTool('restore.js', [archive], dataEnv(fresh, path.join(fresh, 'db', 'wharf.sqlite3')));
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('is not empty: restore into an empty data folder.');
    const partial = await createBackup(s.deps, { dir: path.join(dir, 'partial'), skip: ['db', 'lfs'] });
    expect(partial.manifest.skipped).to.deep.equal(['db', 'lfs']);
    expect(partial.manifest.files.filter((f) => f.part === 'db' || f.part === 'lfs')).to.deep.equal([]);
    expect(partial.manifest.files.some((f) => f.part === 'repositories')).to.equal(true);
    await refused(partial.file, 'The backup has no db part (made with --skip db): it cannot make a server on its own.');
    const bad = await runTool('backup.js', ['--skip', 'secrets'], dataEnv(dir, s.deps.config.db));
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('unknown part to skip: secrets');
  });

  it('queues a scheduled backup once per scheduled moment, not a missed one, and keeps the newest', async () => {
    const config = { backupCron: '0 2 * * *' };
    const at = new Date('2030-05-01T02:01:00Z');
    expect(await queueScheduledBackup(s.db, config, at)).to.equal(true);
    expect(await queueScheduledBackup(s.db, config, new Date('2030-05-01T02:03:00Z'))).to.equal(false); // the same moment: one job
    expect(await queueScheduledBackup(s.db, config, new Date('2030-05-01T09:00:00Z'))).to.equal(false); // missed: not made up for
    expect(await queueScheduledBackup(s.db, {}, at)).to.equal(false);
    expect(await s.db('jobs').where({ kind: SCHEDULED_BACKUP_JOB })).to.have.length(1);
    const keep = tempDir('wharf-keep-');
    for (const t of [100, 300, 200, 400]) fs.writeFileSync(path.join(keep, `${t}_2030_05_01_0.1.0_wharf_backup.tar.gz`), '');
    fs.writeFileSync(path.join(keep, 'notes.txt'), '');
    expect(await pruneBackups(keep, 2)).to.have.members(['100_2030_05_01_0.1.0_wharf_backup.tar.gz', '200_2030_05_01_0.1.0_wharf_backup.tar.gz']);
    expect(fs.readdirSync(keep).sort()).to.deep.equal(['300_2030_05_01_0.1.0_wharf_backup.tar.gz', '400_2030_05_01_0.1.0_wharf_backup.tar.gz', 'notes.txt']);
    const before = fs.readdirSync(s.deps.config.backupDir).length; // the one made for the tests above
    await s.drainJobs();
    expect(fs.readdirSync(s.deps.config.backupDir).filter((n) => n.endsWith('_wharf_backup.tar.gz'))).to.have.length(before + 1);
    const metrics = await (await fetch(`${s.url}/-/metrics`)).text();
    expect(metrics).to.match(/^wharf_backup_last_size_bytes \d+/m);
    // A schedule that cannot be read stops the start, saying why.
    let refusedStart: Error | null = null;
    await bootServer({ WHARF_BACKUP_CRON: 'every night' }).then(
      (other) => other.close(),
      (err: Error) => (refusedStart = err),
    );
    expect(String(refusedStart)).to.include('WHARF_BACKUP_CRON must be a cron schedule such as "0 2 * * *", got "every night"');
  });
});
