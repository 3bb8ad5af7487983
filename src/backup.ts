// `npm run backup [-- --dir <folder>] [--skip repositories,artifacts,…]`: one backup of the Wharf
// WHARF_DB and WHARF_REPOS name, made while it keeps serving (services/backup/create.ts), into
// WHARF_BACKUP_DIR (default `backups/`). Prints where it went, its size and what it holds;
// exits 1 with the reason when it could not be made (nothing is left then).
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from './config.js';
import type { Deps } from './deps.js';
import { openDb } from './store/db.js';
import { RepoStore } from './git/repos.js';
import { createBackup } from './services/backup/create.js';
import { SKIPPABLE, type Part } from './services/backup/parts.js';

const USAGE = `usage: npm run backup -- [--dir <folder>] [--skip ${SKIPPABLE.join(',')}]`;

async function main(): Promise<number> {
  let values: { dir?: string; skip?: string };
  try {
    ({ values } = parseArgs({ options: { dir: { type: 'string' }, skip: { type: 'string' } }, strict: true }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const skip = (values.skip ?? '').split(',').filter(Boolean) as Part[];
  const unknown = skip.filter((s) => !SKIPPABLE.includes(s));
  if (unknown.length) {
    console.error(`unknown part to skip: ${unknown.join(', ')}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const log = pino({ level: 'warn' });
  const db = openDb(config.db, 2);
  // What a backup reads: the database, the repositories (and their locks), the configuration.
  const deps = { config, db, repos: new RepoStore(config.reposDir), log } as Omit<Deps, 'urls' | 'jobs'> as Deps;
  try {
    const result = await createBackup(deps, { dir: path.resolve(values.dir ?? config.backupDir), skip });
    const parts = Object.entries(result.manifest.parts).map(([p, s]) => `${p} ${s.files} files ${s.bytes} bytes`);
    console.log(`${result.file}\n${result.bytes} bytes in ${result.ms} ms\n${parts.join('\n')}`);
    return 0;
  } catch (err) {
    console.error(`the backup failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
