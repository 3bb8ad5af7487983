// Scheduled backups (WHARF_BACKUP_CRON, cron syntax read by cron-parser, in UTC): every process
// looks once a minute, as for the other periodic jobs, and queues the run of the latest
// scheduled moment unless it is more than five minutes old (a server that was down at 02:00 does
// not make up for it at start, as sidekiq-cron does not); the run's unique key is that moment,
// so however many processes look, one backup runs. After it, only the newest WHARF_BACKUP_KEEP
// backups of WHARF_BACKUP_DIR are kept.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Conn } from '../../store/db.js';
import { enqueueJob } from '../../store/job_queue.js';

export const SCHEDULED_BACKUP_JOB = 'scheduled_backup';
const LATE_BY_AT_MOST_MS = 5 * 60_000;
const BACKUP_NAME_END = '_wharf_backup.tar.gz';

/** cron-parser (and its date library), loaded only where backups are scheduled. */
const parser = () => import('cron-parser').then((m) => m.CronExpressionParser);

/** The latest moment of the schedule at or before `at`. */
async function lastScheduled(cron: string, at: Date): Promise<Date> {
  return (await parser())
    .parse(cron, { currentDate: new Date(at.getTime() + 1), tz: 'UTC' })
    .prev()
    .toDate();
}

/** Throws a clear error when WHARF_BACKUP_CRON is set and is no schedule (checked at start). */
export async function checkBackupSchedule(config: Pick<Config, 'backupCron'>): Promise<void> {
  if (!config.backupCron) return;
  try {
    (await parser()).parse(config.backupCron, { tz: 'UTC' });
  } catch (err) {
    throw new Error(`WHARF_BACKUP_CRON must be a cron schedule such as "0 2 * * *", got "${config.backupCron}": ${(err as Error).message}`);
  }
}

export async function queueScheduledBackup(db: Conn, config: Pick<Config, 'backupCron'>, at: Date): Promise<boolean> {
  if (!config.backupCron) return false;
  const moment = await lastScheduled(config.backupCron, at);
  if (at.getTime() - moment.getTime() > LATE_BY_AT_MOST_MS) return false;
  const id = await enqueueJob(db, SCHEDULED_BACKUP_JOB, {}, { queue: 'cronjob', uniqueKey: `backup:${moment.toISOString()}`, uniqueUntil: 'pruned', maxAttempts: 3 });
  return id !== null;
}

/** Removes all but the newest `keep` backups of `dir` (0: keeps all); answers the removed names. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  if (keep <= 0) return [];
  const names = (await fs.promises.readdir(dir)).filter((n) => n.endsWith(BACKUP_NAME_END) && /^\d+_/.test(n));
  names.sort((a, b) => Number(b.split('_')[0]) - Number(a.split('_')[0]) || b.localeCompare(a));
  const old = names.slice(keep);
  for (const n of old) await fs.promises.rm(path.join(dir, n), { force: true });
  return old;
}
