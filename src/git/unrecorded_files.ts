// Sweeping a content-addressed store of Wharf's own (`ab/cd/<name>` under a folder: LFS objects,
// uploads) of the files no database row names any more, once they are older than a grace period:
// a file stored moments ago may still be waiting for its row. Which names are recorded is asked
// in batches of the caller (one query per 500 files, not per file).
import fs from 'node:fs';
import path from 'node:path';
import { filesUnder } from './files_under.js';

const BATCH = 500;

export interface SweepOptions {
  /** Whether a file name has the store's form (an oid, a SHA-256); other files are left alone. */
  isName(name: string): boolean;
  /** Of `names`, those a row still names. */
  recorded(names: string[]): Promise<Set<string>>;
  olderThanMs: number;
  at: Date;
}

/** Removes the old files of `dir` no row names; answers how many. */
export async function sweepUnrecordedFiles(dir: string, options: SweepOptions): Promise<number> {
  const old: string[] = [];
  for (const rel of await filesUnder(dir)) {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (!options.isName(name) || rel !== `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`) continue;
    const stat = await fs.promises.stat(path.join(dir, rel)).catch(() => null);
    if (stat && options.at.getTime() - stat.mtimeMs > options.olderThanMs) old.push(rel);
  }
  let removed = 0;
  for (let i = 0; i < old.length; i += BATCH) {
    const batch = old.slice(i, i + BATCH);
    const names = batch.map((rel) => rel.slice(rel.lastIndexOf('/') + 1));
    const recorded = await options.recorded(names);
    for (const [j, rel] of batch.entries()) {
      if (recorded.has(names[j])) continue;
      await fs.promises.rm(path.join(dir, rel), { force: true });
      removed++;
    }
  }
  return removed;
}
