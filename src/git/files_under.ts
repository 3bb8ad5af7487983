// Listing the files of a folder of Wharf's own data (`@wharf/…`: LFS objects, uploads, CI files),
// for the backup's staging and the stores' sweeps. Symbolic links and other special files are
// not followed nor listed.
import fs from 'node:fs';
import path from 'node:path';

/** Every file under `dir`, as paths relative to it (none when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(child);
      else if (e.isFile()) out.push(child);
    }
  };
  await walk('');
  return out;
}
