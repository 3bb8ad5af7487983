// A job's artifacts archive (GitLab's artifacts.zip): the selected files of the checkout zipped
// onto a stream (sandbox_helper.ts, inside the job's sandbox) and stored by the server to a
// temp name beside the final one, then renamed, so a stored archive is always whole; and
// GitLab's `expire_in` (ChronicDuration's common forms: "1 week", "3 days 4 hrs", "30 min").
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Selected } from './artifact_paths.js';

/** Zips `files` (relative to `root`) onto `out`; answers the archive's size in bytes. */
export async function writeZip(root: string, files: Selected[], out: Writable): Promise<number> {
  const { ZipArchive } = await import('archiver'); // loaded by the first job with artifacts
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const finished = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve());
    zip.on('error', reject);
    out.on('error', reject);
  });
  zip.pipe(out);
  for (const f of files) {
    const abs = path.join(root, f.rel);
    if (f.kind === 'symlink') zip.symlink(f.rel, fs.readlinkSync(abs));
    else zip.file(abs, { name: f.rel });
  }
  await zip.finalize();
  await finished;
  return zip.pointer();
}

const UNIT_SECONDS: [string[], number][] = [
  [['s', 'sec', 'secs', 'second', 'seconds'], 1],
  [['m', 'min', 'mins', 'minute', 'minutes'], 60],
  [['h', 'hr', 'hrs', 'hour', 'hours'], 3600],
  [['d', 'day', 'days'], 86400],
  [['w', 'wk', 'wks', 'week', 'weeks'], 604800],
  [['mo', 'mos', 'month', 'months'], 2592000],
  [['y', 'yr', 'yrs', 'year', 'years'], 31536000],
];

/** Seconds of an `expire_in`, or null for none/never/unreadable. */
export function expireInSeconds(text: string | undefined): number | null {
  if (!text || /^\s*never\s*$/i.test(text)) return null;
  let total = 0;
  let found = false;
  for (const m of text.toLowerCase().matchAll(/(\d+)\s*([a-z]*)/g)) {
    const unit = m[2] || 's';
    const entry = UNIT_SECONDS.find(([names]) => names.includes(unit));
    if (!entry) return null;
    total += Number(m[1]) * entry[1];
    found = true;
  }
  return found ? total : null;
}
