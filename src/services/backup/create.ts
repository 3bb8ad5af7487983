// Making a backup (`npm run backup`, and the scheduled backups): the database snapshot first,
// then the repositories of that snapshot, the data parts and the secrets, gathered by links in
// a staging folder under `@wharf/tmp/` (services/backup/staging.ts), then packed as one
// gzip-compressed tar streamed to `<dir>/<name>.tar.gz` under a temporary name, flushed and
// renamed into place: a backup on disk is always whole. The manifest is the archive's last entry.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { isPostgresUrl } from '../../store/db.js';
import { syncDir } from '../../git/repo_journal.js';
import { DATA_PARTS, DATABASE_FILE, MANIFEST_FILE, PART_FOLDER, PARTS, type Part } from './parts.js';
import { Staging } from './staging.js';
import { migrationsOf, openSnapshot, snapshotDatabase } from './stage_database.js';
import { stageRepositories } from './stage_repositories.js';
import { stageDataPart, stageSecrets } from './stage_files.js';
import { BACKUP_FORMAT, summarize, wharfVersion, type Manifest } from './manifest.js';

export interface BackupOptions {
  dir: string;
  skip?: Part[];
  at?: Date;
}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  manifest: Manifest;
}

/** GitLab's backup name form: `<unix time>_<YYYY_MM_DD>_<version>_wharf_backup.tar.gz`. */
function backupName(at: Date): string {
  const day = at.toISOString().slice(0, 10).replaceAll('-', '_');
  return `${Math.floor(at.getTime() / 1000)}_${day}_${wharfVersion()}_wharf_backup.tar.gz`;
}

async function pack(root: string, entries: string[], file: string): Promise<void> {
  const tar = await import('tar'); // loaded by the first backup: an idle process does without it
  await tar.c({ gzip: true, cwd: root, file, portable: true }, entries);
  const fd = await fs.promises.open(file, 'r');
  await fd.sync();
  await fd.close();
}

export async function createBackup(deps: Deps, options: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  const at = options.at ?? new Date();
  const skip = options.skip ?? [];
  const staging = new Staging(path.join(deps.repos.tmpDir, `backup.${os.hostname()}.${process.pid}.${crypto.randomBytes(6).toString('hex')}`));
  await fs.promises.mkdir(staging.root, { recursive: true });
  try {
    const dbFile = path.join(staging.root, DATABASE_FILE);
    await fs.promises.mkdir(path.dirname(dbFile), { recursive: true });
    await snapshotDatabase(deps, dbFile);
    const snapshot = openSnapshot(dbFile);
    let migrations: string[];
    try {
      migrations = await migrationsOf(snapshot);
      if (!skip.includes('repositories')) await stageRepositories(deps, snapshot, staging);
    } finally {
      await snapshot.destroy();
    }
    if (skip.includes('db')) await fs.promises.rm(path.dirname(dbFile), { recursive: true, force: true });
    else staging.record(DATABASE_FILE, 'db');
    for (const part of DATA_PARTS) if (!skip.includes(part)) await stageDataPart(deps.config, staging, part);
    await stageSecrets(deps.config, staging);
    const files = await staging.files();
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      wharf_version: wharfVersion(),
      created_at: at.toISOString(),
      engine: isPostgresUrl(deps.config.db) ? 'postgresql' : 'sqlite',
      migrations,
      last_migration: migrations[migrations.length - 1] ?? null,
      skipped: skip,
      parts: summarize(files, skip),
      files,
    };
    await fs.promises.writeFile(path.join(staging.root, MANIFEST_FILE), JSON.stringify(manifest));
    await fs.promises.mkdir(options.dir, { recursive: true });
    const name = backupName(at);
    const tmp = path.join(options.dir, `.${name}.${crypto.randomBytes(4).toString('hex')}.tmp`);
    const present = PARTS.filter((p) => fs.existsSync(path.join(staging.root, PART_FOLDER[p])));
    try {
      await pack(staging.root, [...present.map((p) => PART_FOLDER[p]), MANIFEST_FILE], tmp);
      await fs.promises.rename(tmp, path.join(options.dir, name));
      await syncDir(options.dir); // the rename itself on disk: a backup reported made is there after a crash
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
    const file = path.join(options.dir, name);
    return { file, bytes: (await fs.promises.stat(file)).size, ms: Date.now() - started, manifest };
  } finally {
    await fs.promises.rm(staging.root, { recursive: true, force: true });
  }
}
