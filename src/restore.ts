// `npm run restore -- <archive>`: a backup restored into the empty data folder and database that
// WHARF_REPOS and WHARF_DB name (services/backup/restore.ts), after checking it whole. Exits 1,
// with the reason (naming the damaged part), when it is refused or fails; nothing is left then.
import path from 'node:path';
import { loadConfig } from './config.js';
import { restoreBackup } from './services/backup/restore.js';
import { BackupRefused } from './services/backup/verify.js';

async function main(): Promise<number> {
  const archive = process.argv[2];
  if (!archive || process.argv.length > 3) {
    console.error('usage: npm run restore -- <backup archive>');
    return 2;
  }
  try {
    const manifest = await restoreBackup(loadConfig(), path.resolve(archive));
    console.log(`restored the backup of ${manifest.created_at} (Wharf ${manifest.wharf_version}, ${manifest.engine}, ${manifest.files.length} files)`);
    return 0;
  } catch (err) {
    console.error(err instanceof BackupRefused ? `refused: ${err.message}` : `the restore failed: ${(err as Error).message}`);
    return 1;
  }
}

process.exitCode = await main();
