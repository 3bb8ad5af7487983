// Where uploaded files live: one file per content under `<repos>/@wharf/uploads/objects/`, named
// by its SHA-256 and fanned out (`ab/cd/<sha256>`), so a file uploaded twice (or restored from
// an export) is stored once. A file comes in through a temporary file beside the store, flushed
// and linked into place: a file in the store is always whole and what its name says.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { syncDir } from '../../git/repo_journal.js';

export function uploadsDir(reposRoot: string): string {
  return path.join(reposRoot, '@wharf', 'uploads', 'objects');
}

/** The stored file of `sha256` (checked again here, where it becomes a path). */
export function uploadPath(reposRoot: string, sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('not a SHA-256');
  return path.join(uploadsDir(reposRoot), sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

/** Copies `source` (a request's temporary file) into the store; its SHA-256 and size. */
export async function storeUploadedFile(reposRoot: string, source: string): Promise<{ sha256: string; size: number }> {
  const dir = path.join(reposRoot, '@wharf', 'uploads', 'tmp');
  await fs.promises.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `${process.pid}.${crypto.randomBytes(8).toString('hex')}`);
  const hash = crypto.createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      fs.createReadStream(source),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const c of chunks) {
          hash.update(c);
          size += c.length;
          yield c;
        }
      },
      fs.createWriteStream(tmp, { flags: 'wx', flush: true }),
    );
    const sha256 = hash.digest('hex');
    const final = uploadPath(reposRoot, sha256);
    await fs.promises.mkdir(path.dirname(final), { recursive: true });
    try {
      await fs.promises.link(tmp, final);
      await syncDir(path.dirname(final));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return { sha256, size };
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}
