// The scheduled backup (WHARF_BACKUP_CRON): a durable job of queue cronjob, queued once per
// scheduled moment across all processes (services/backup/schedule.ts), that makes a backup into
// WHARF_BACKUP_DIR, keeps the newest WHARF_BACKUP_KEEP, and says how it went in the log and in
// `/-/metrics` (wharf_backup_last_*). A failed attempt is retried; the backup is whole or absent.
import { createBackup } from '../services/backup/create.js';
import { pruneBackups, SCHEDULED_BACKUP_JOB } from '../services/backup/schedule.js';
import { recordBackup } from '../services/metrics/metrics.js';
import { registerJob } from './registry.js';

registerJob(SCHEDULED_BACKUP_JOB, {
  queue: 'cronjob',
  maxAttempts: 3,
  handler: async (deps) => {
    const result = await createBackup(deps, { dir: deps.config.backupDir });
    const removed = await pruneBackups(deps.config.backupDir, deps.config.backupKeep);
    recordBackup(new Date(), result.bytes, result.ms);
    deps.log.info({ file: result.file, bytes: result.bytes, ms: result.ms, removed }, 'backup made');
    return { file: result.file, bytes: result.bytes, ms: result.ms };
  },
});
