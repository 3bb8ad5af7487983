// Restoring a backup onto a new machine (`npm run restore -- <archive>`): into an empty data
// folder (WHARF_REPOS, and the database WHARF_DB names: a new SQLite file, or an empty
// PostgreSQL database). The archive is unpacked beside WHARF_REPOS and checked whole against its
// manifest first (verify.ts): a damaged, truncated or newer Wharf's backup is refused, naming
// the part, before anything is written where the server reads. Then the repositories and data
// folders are renamed into place, the secrets written, and the database put last: the SQLite file
// migrated forward and moved in, or copied into PostgreSQL in one transaction (the same logical
// copy as `db:copy`). Whatever fails undoes what was placed, so nothing is left half-made.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { isPostgresUrl, migrate, openDb } from '../../store/db.js';
import { copySqliteToPostgres } from '../../store/copy.js';
import { BackupRefused, readManifest, verifyUnpacked } from './verify.js';
import { DATA_PARTS, DATABASE_FILE, dataFolder, PART_FOLDER, partOf, secretFiles } from './parts.js';
import type { Manifest } from './manifest.js';

const QUIET = { start: () => undefined, copied: () => undefined };
/** What tar may hold: files, folders and hard links between its own files; never a symbolic link. */
const ENTRY_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'Link']);

async function emptyFolder(dir: string): Promise<boolean> {
  try {
    return (await fs.promises.readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

async function refuseFilledTarget(config: Config): Promise<void> {
  if (!(await emptyFolder(config.reposDir))) throw new BackupRefused(`${config.reposDir} is not empty: restore into an empty data folder.`);
  if (!isPostgresUrl(config.db) && fs.existsSync(config.db)) throw new BackupRefused(`${config.db} exists: restore into a new database.`);
  for (const file of Object.values(secretFiles(config))) if (fs.existsSync(file)) throw new BackupRefused(`${file} exists: restore onto a machine without Wharf's secrets.`);
}

async function unpack(archive: string, into: string): Promise<void> {
  const tar = await import('tar');
  let current = '(the start)';
  try {
    await tar.x({
      file: archive,
      cwd: into,
      strict: true,
      filter: (p, entry) => {
        current = p;
        if (!ENTRY_TYPES.has((entry as { type?: string }).type ?? '')) throw new BackupRefused(`The ${partOf(p) ?? 'unknown'} part holds ${p}, which is no file or folder.`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof BackupRefused) throw err;
    throw new BackupRefused(`The archive is damaged or truncated in the ${partOf(current) ?? 'manifest'} part (at ${current}): ${(err as Error).message}`);
  }
}

/** Moves `from` to `to` (a copy where they are on different file systems). */
async function move(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.promises.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.promises.cp(from, to, { recursive: true });
    await fs.promises.rm(from, { recursive: true, force: true });
  }
}

async function placeFiles(config: Config, root: string, placed: string[]): Promise<void> {
  const repos = path.join(root, PART_FOLDER.repositories);
  await fs.promises.rm(config.reposDir, { recursive: true, force: true }); // empty (checked)
  if (fs.existsSync(repos)) await move(repos, config.reposDir);
  else await fs.promises.mkdir(config.reposDir, { recursive: true });
  placed.push(config.reposDir);
  for (const part of DATA_PARTS) {
    const from = path.join(root, PART_FOLDER[part]);
    if (fs.existsSync(from)) await move(from, dataFolder(config, part));
  }
  for (const [name, file] of Object.entries(secretFiles(config))) {
    const from = path.join(root, PART_FOLDER.secrets, name);
    if (!fs.existsSync(from)) continue;
    await move(from, file);
    await fs.promises.chmod(file, name.endsWith('.pub') ? 0o644 : 0o600);
    placed.push(file);
  }
}

async function placeDatabase(config: Config, root: string, placed: string[]): Promise<void> {
  const file = path.join(root, DATABASE_FILE);
  const migrating = openDb(file, 1);
  try {
    await migrate(migrating); // an older backup comes forward to this version's schema
  } finally {
    await migrating.destroy();
  }
  if (isPostgresUrl(config.db)) {
    await copySqliteToPostgres(file, config.db, QUIET);
    return;
  }
  const tmp = `${config.db}.${crypto.randomBytes(4).toString('hex')}.restoring`;
  await move(file, tmp);
  await fs.promises.rename(tmp, config.db);
  placed.push(config.db);
}

export async function restoreBackup(config: Config, archive: string): Promise<Manifest> {
  if (!fs.existsSync(archive)) throw new BackupRefused(`${archive} does not exist.`);
  await refuseFilledTarget(config);
  const root = `${path.resolve(config.reposDir)}.restoring-${crypto.randomBytes(4).toString('hex')}`;
  await fs.promises.mkdir(root, { recursive: true });
  const placed: string[] = [];
  try {
    await unpack(archive, root);
    const manifest = await readManifest(root);
    await verifyUnpacked(root, manifest);
    if (manifest.skipped.includes('db')) throw new BackupRefused('The backup has no db part (made with --skip db): it cannot make a server on its own.');
    await placeFiles(config, root, placed);
    await placeDatabase(config, root, placed);
    return manifest;
  } catch (err) {
    for (const p of placed.reverse()) await fs.promises.rm(p, { recursive: true, force: true });
    throw err;
  } finally {
    // tar may still be finishing a file of a refused archive: retried until the folder is gone.
    await fs.promises.rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
