// `npm run db:copy -- --from db/wharf.sqlite3 --to postgres://user@host/wharf`: copies a whole
// SQLite store into an empty PostgreSQL database (src/store/copy.ts) with a progress bar,
// then prints each table's row counts on both sides. Exits 1, with the reason, when the
// target is not empty or anything fails; the target is then left as it was.
import { parseArgs } from 'node:util';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { copySqliteToPostgres, CopyError, type CopyProgress } from './store/copy.js';

const USAGE = 'usage: npm run db:copy -- --from <sqlite file> --to <postgres:// URL>';

function progressBar(): CopyProgress & { stop(): void } {
  const bar = new cliProgress.SingleBar(
    {
      format: '{bar} {percentage}% | {value}/{total} rows | {table}',
      stream: process.stderr,
      // Without a terminal (a log, CI), one line now and then instead of redrawing.
      noTTYOutput: !process.stderr.isTTY,
      notTTYSchedule: 2000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    start(tables) {
      bar.start(
        tables.reduce((n, t) => n + t.rows, 0),
        0,
        { table: '' },
      );
      started = true;
    },
    copied(table, rows) {
      bar.increment(rows, { table });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

async function main(): Promise<number> {
  let from: string | undefined;
  let to: string | undefined;
  try {
    ({
      values: { from, to },
    } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!from || !to) {
    console.error(USAGE);
    return 2;
  }
  const progress = progressBar();
  try {
    const counts = await copySqliteToPostgres(path.resolve(from), to, progress);
    progress.stop();
    const width = Math.max(...counts.map((c) => c.table.length), 5);
    console.log(`${'table'.padEnd(width)}  ${'sqlite'.padStart(9)}  ${'postgres'.padStart(9)}`);
    for (const c of counts) console.log(`${c.table.padEnd(width)}  ${String(c.source).padStart(9)}  ${String(c.target).padStart(9)}`);
    const total = counts.reduce((n, c) => n + c.target, 0);
    console.log(`copied ${total} rows of ${counts.length} tables; every count matches`);
    return 0;
  } catch (err) {
    progress.stop();
    console.error(err instanceof CopyError ? `db:copy: ${err.message}` : `db:copy failed: ${(err as Error).stack ?? err}`);
    return 1;
  }
}

process.exitCode = await main();
