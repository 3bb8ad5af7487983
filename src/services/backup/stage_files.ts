// The file parts of a backup: CI job logs (copied: a running job's log still grows), job
// artifacts, Git LFS objects and uploaded files (linked: written once, under a temporary name
// linked or renamed into place, never changed), and the secrets (copied). Files that appear after the database
// snapshot are taken too (no row names them yet: harmless); a file removed meanwhile (an
// expired artifact) is simply not there.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { filesUnder } from '../../git/files_under.js';
import type { Staging } from './staging.js';
import { dataFolder, PART_FOLDER, secretFiles, type DataPart, type Part } from './parts.js';

/** Stages one data part; answers how many files it took. */
export async function stageDataPart(config: Config, staging: Staging, part: DataPart): Promise<number> {
  const dir = dataFolder(config, part);
  let taken = 0;
  for (const rel of await filesUnder(dir)) {
    const target = `${PART_FOLDER[part]}/${rel}`;
    try {
      if (part === 'builds') await staging.copy(path.join(dir, rel), target, part);
      else await staging.link(path.join(dir, rel), target, part);
      taken++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await staging.drop(target);
    }
  }
  return taken;
}

export async function stageSecrets(config: Config, staging: Staging): Promise<void> {
  for (const [name, file] of Object.entries(secretFiles(config))) {
    if (fs.existsSync(file)) await staging.copy(file, `${PART_FOLDER.secrets}/${name}`, 'secrets' as Part);
  }
}
