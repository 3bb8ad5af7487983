// The Git LFS object store: one file per object under `<repos>/@wharf/lfs/objects/`, named by
// its SHA-256 oid and fanned out as GitLab's `lfs-objects/ab/cd/<rest>` (`ab/cd/<oid>` here), so
// an object pushed to many projects (forks, mirrors) is stored once. An upload is streamed to
// a temporary file in `@wharf/lfs/tmp/` (the same file system), its size and SHA-256 counted as
// it arrives and checked against what the client declared before it is flushed to disk and
// renamed into place: a file in the store is always whole and always has the content its
// name says. Nothing of an upload that fails (wrong size, wrong hash, a body cut short) stays.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { syncDir } from './repo_journal.js';

/** A 64-character lowercase hexadecimal SHA-256, the only oid accepted (tested by characters). */
export function isLfsOid(oid: unknown): oid is string {
  if (typeof oid !== 'string' || oid.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = oid.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Why an upload was not stored. */
export class LfsUploadRefused extends Error {
  constructor(readonly reason: 'size' | 'oid') {
    super(reason === 'size' ? 'the body is not the size declared' : 'the body does not hash to the oid');
  }
}

/** Counts and hashes what passes, failing as soon as more than `size` bytes came. */
function measure(size: number, hash: crypto.Hash, seen: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen.bytes += chunk.length;
      if (seen.bytes > size) return done(new LfsUploadRefused('size'));
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

export class LfsStore {
  readonly objectsDir: string;
  readonly tmpDir: string;

  constructor(reposRoot: string) {
    const base = path.join(reposRoot, '@wharf', 'lfs');
    this.objectsDir = path.join(base, 'objects');
    this.tmpDir = path.join(base, 'tmp');
  }

  /** The file of `oid`; the oid is checked again here, where it becomes a path. */
  pathOf(oid: string): string {
    if (!isLfsOid(oid)) throw new Error(`not an LFS oid: ${JSON.stringify(oid).slice(0, 80)}`);
    return path.join(this.objectsDir, oid.slice(0, 2), oid.slice(2, 4), oid);
  }

  /** The stored object's size, or null when it is not in the store. */
  async sizeOf(oid: string): Promise<number | null> {
    try {
      return (await fs.promises.stat(this.pathOf(oid))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** A temporary file name that tells the sweep whose it is (`<host>.<pid>.<random>`). */
  private tempPath(): string {
    return path.join(this.tmpDir, `${os.hostname()}.${process.pid}.${crypto.randomBytes(8).toString('hex')}`);
  }

  /**
   * Reads `body` into a temporary file, checking that it is exactly `size` bytes that hash to
   * `oid` (else throws LfsUploadRefused and keeps nothing). The caller places it in the store
   * and discards the temporary file when done (ReceivedObject).
   */
  async receive(oid: string, size: number, body: Readable): Promise<ReceivedObject> {
    const final = this.pathOf(oid);
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    const tmp = this.tempPath();
    const hash = crypto.createHash('sha256');
    const seen = { bytes: 0 };
    try {
      await pipeline(body, measure(size, hash, seen), fs.createWriteStream(tmp, { flags: 'wx', mode: 0o644, flush: true, highWaterMark: 1024 * 1024 }));
      if (seen.bytes !== size) throw new LfsUploadRefused('size');
      if (hash.digest('hex') !== oid) throw new LfsUploadRefused('oid');
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    return new ReceivedObject(tmp, final, size);
  }

  /** The object's bytes from `start` to `end` (inclusive), streamed (in 1 MB reads: fewer turns). */
  read(oid: string, range?: { start: number; end: number }): fs.ReadStream {
    return fs.createReadStream(this.pathOf(oid), { ...range, highWaterMark: 1024 * 1024 });
  }

  /** Removes the object's file (a missing one is no error). */
  async remove(oid: string): Promise<void> {
    await fs.promises.rm(this.pathOf(oid), { force: true });
  }

  /** Removes temporary files older than `olderThanMs` (uploads a crashed process left). */
  async sweepTemp(olderThanMs: number, at = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.tmpDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.tmpDir, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat && at - stat.mtimeMs > olderThanMs) {
        await fs.promises.rm(file, { force: true, recursive: true });
        removed++;
      }
    }
    return removed;
  }
}

/**
 * A checked upload in its temporary file. `place()` puts it in the store (a hard link, so the
 * temporary file stays until `discard()`): an object already stored is left as it is, only
 * its time touched. The upload places it before recording the object and again after (the
 * sweep of unreferenced objects may have removed the file of a row it deleted meanwhile).
 */
export class ReceivedObject {
  constructor(
    private readonly tmp: string,
    private readonly final: string,
    private readonly size: number,
  ) {}

  async place(): Promise<void> {
    const dir = path.dirname(this.final);
    await fs.promises.mkdir(dir, { recursive: true });
    try {
      await fs.promises.link(this.tmp, this.final);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const stored = await fs.promises.stat(this.final);
      if (stored.size === this.size) {
        const at = new Date();
        return fs.promises.utimes(this.final, at, at);
      }
      // A damaged file (not what its name says): replaced, atomically.
      const spare = `${this.tmp}.replace`;
      await fs.promises.link(this.tmp, spare);
      await fs.promises.rename(spare, this.final);
    }
    await syncDir(dir);
  }

  async discard(): Promise<void> {
    await fs.promises.rm(this.tmp, { force: true });
  }
}
