// The folder a backup is gathered in before it is packed: files hard-linked from where they live
// (no second copy on disk; git's objects, artifacts and LFS objects are never changed in place,
// only added and removed), copied where they may still grow (a running job's log), or written
// (the refs as they were at one moment). Each file is recorded with its part, size and SHA-256
// for the manifest.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Part } from './parts.js';

export interface StagedFile {
  path: string;
  part: Part;
  size: number;
  sha256: string;
}

export async function sha256Of(file: string): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), async function* (chunks: AsyncIterable<Buffer>) {
    for await (const c of chunks) {
      size += c.length;
      hash.update(c);
    }
  });
  return { size, sha256: hash.digest('hex') };
}

export class Staging {
  private readonly entries = new Map<string, Part>();

  constructor(readonly root: string) {}

  private async target(rel: string, part: Part): Promise<string> {
    const file = path.join(this.root, rel);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    this.entries.set(rel, part);
    return file;
  }

  /** Links `source` in (a copy where a link cannot be made); ENOENT when it went away. */
  async link(source: string, rel: string, part: Part): Promise<void> {
    const file = await this.target(rel, part);
    try {
      await fs.promises.link(source, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
      await fs.promises.copyFile(source, file);
    }
  }

  /** Records a file already written at `rel` (the database snapshot). */
  record(rel: string, part: Part): void {
    this.entries.set(rel, part);
  }

  async copy(source: string, rel: string, part: Part): Promise<void> {
    await fs.promises.copyFile(source, await this.target(rel, part));
  }

  async write(rel: string, content: string | Buffer, part: Part): Promise<void> {
    await fs.promises.writeFile(await this.target(rel, part), content);
  }

  /** Forgets (and removes) what was staged under `prefix`, to stage it again. */
  async drop(prefix: string): Promise<void> {
    for (const rel of [...this.entries.keys()]) if (rel.startsWith(prefix)) this.entries.delete(rel);
    await fs.promises.rm(path.join(this.root, prefix), { recursive: true, force: true });
  }

  /** Every staged file with its size and SHA-256, in path order. */
  async files(): Promise<StagedFile[]> {
    const out: StagedFile[] = [];
    for (const rel of [...this.entries.keys()].sort()) {
      out.push({ path: rel, part: this.entries.get(rel)!, ...(await sha256Of(path.join(this.root, rel))) });
    }
    return out;
  }
}
