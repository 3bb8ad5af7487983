// A commit's tree, edited in memory the way GitLab's Gitlab::Git::Index edits a Rugged index:
// create / create_dir / update / move / delete / chmod, each with GitLab's error messages.
// Directories are read lazily, so a write touches only the trees on its paths; `write`
// hashes the changed trees bottom-up (empty directories disappear, as in git).
import { readBlob, readTree } from './odb.js';
import type { ObjectBatch } from './writer.js';

export class IndexError extends Error {}

const FILE_EXISTS = 'A file with this name already exists';
const FILE_MISSING = "A file with this name doesn't exist";
const DIR_EXISTS = 'A directory with this name already exists';

const REGULAR = '100644';
const EXECUTABLE = '100755';

interface FileEntry {
  kind: 'file';
  mode: string;
  type: 'blob' | 'commit';
  oid: string | null;
  /** New content, hashed and written by `write`. */
  content?: Uint8Array;
}

interface DirEntry {
  kind: 'dir';
  dir: Dir;
}

type Entry = FileEntry | DirEntry;

class Dir {
  entries: Map<string, Entry> | null = null;
  dirty = false;
  constructor(public oid: string | null) {
    if (oid === null) this.entries = new Map();
  }
}

export class TreeIndex {
  private readonly root: Dir;

  constructor(
    readonly gitdir: string,
    baseTree: string | null,
  ) {
    this.root = new Dir(baseTree);
  }

  private async entriesOf(dir: Dir): Promise<Map<string, Entry>> {
    if (dir.entries) return dir.entries;
    // Through the object store that survives a concurrent repack (odb.ts), not isomorphic-git's packs.
    const tree = await readTree(this.gitdir, dir.oid!);
    const entries = new Map<string, Entry>();
    for (const e of tree) {
      entries.set(e.name, e.type === 'tree' ? { kind: 'dir', dir: new Dir(e.oid) } : { kind: 'file', mode: e.mode, type: e.type, oid: e.oid });
    }
    dir.entries = entries;
    return entries;
  }

  /** The directories down to the parent of `segments` (null when one is missing or a file). */
  private async parents(segments: string[]): Promise<Dir[] | null> {
    const chain = [this.root];
    for (const name of segments.slice(0, -1)) {
      const entry = (await this.entriesOf(chain[chain.length - 1])).get(name);
      if (!entry || entry.kind !== 'dir') return null;
      chain.push(entry.dir);
    }
    return chain;
  }

  private async entry(segments: string[]): Promise<Entry | null> {
    const chain = await this.parents(segments);
    if (!chain) return null;
    return (await this.entriesOf(chain[chain.length - 1])).get(segments[segments.length - 1]) ?? null;
  }

  /** The file (blob or submodule) at the path, or null. */
  async file(segments: string[]): Promise<FileEntry | null> {
    const e = await this.entry(segments);
    return e && e.kind === 'file' ? e : null;
  }

  async isDir(segments: string[]): Promise<boolean> {
    return (await this.entry(segments))?.kind === 'dir';
  }

  /** Current content of a file (new content if staged), or null. */
  async content(segments: string[]): Promise<Uint8Array | null> {
    const f = await this.file(segments);
    if (!f || f.type !== 'blob') return null;
    if (f.content) return f.content;
    return readBlob(this.gitdir, f.oid!);
  }

  /** Puts a file at the path, creating directories; a file in the way is an error. */
  private async put(segments: string[], file: FileEntry): Promise<void> {
    let dir = this.root;
    const chain = [dir];
    for (const name of segments.slice(0, -1)) {
      const entries = await this.entriesOf(dir);
      const e = entries.get(name);
      if (e && e.kind === 'file') throw new IndexError(FILE_EXISTS);
      if (e) dir = e.dir;
      else {
        const created = new Dir(null);
        entries.set(name, { kind: 'dir', dir: created });
        dir = created;
      }
      chain.push(dir);
    }
    const entries = await this.entriesOf(dir);
    const existing = entries.get(segments[segments.length - 1]);
    if (existing && existing.kind === 'dir') throw new IndexError(DIR_EXISTS);
    entries.set(segments[segments.length - 1], file);
    for (const d of chain) d.dirty = true;
  }

  private async drop(segments: string[]): Promise<void> {
    const chain = (await this.parents(segments))!;
    (await this.entriesOf(chain[chain.length - 1])).delete(segments[segments.length - 1]);
    for (const d of chain) d.dirty = true;
  }

  async create(segments: string[], content: Uint8Array): Promise<void> {
    if (await this.file(segments)) throw new IndexError(FILE_EXISTS);
    await this.put(segments, { kind: 'file', mode: REGULAR, type: 'blob', oid: null, content });
  }

  /** GitLab's create_dir: an empty `.gitkeep` inside a new directory. */
  async createDir(segments: string[]): Promise<void> {
    if (await this.file(segments)) throw new IndexError(FILE_EXISTS);
    if (await this.isDir(segments)) throw new IndexError(DIR_EXISTS);
    await this.put([...segments, '.gitkeep'], { kind: 'file', mode: REGULAR, type: 'blob', oid: null, content: new Uint8Array() });
  }

  async update(segments: string[], content: Uint8Array): Promise<void> {
    const f = await this.file(segments);
    if (!f) throw new IndexError(FILE_MISSING);
    const mode = f.type === 'blob' ? f.mode : REGULAR; // a submodule overwritten becomes a file
    await this.put(segments, { kind: 'file', mode, type: 'blob', oid: null, content });
  }

  /** Moves a file, keeping its mode; without new content it keeps its content too. */
  async move(from: string[], to: string[], content: Uint8Array | null): Promise<void> {
    const f = await this.file(from);
    if (!f) throw new IndexError(FILE_MISSING);
    if (await this.file(to)) throw new IndexError(FILE_EXISTS);
    await this.drop(from);
    const moved: FileEntry = content === null ? { ...f } : { kind: 'file', mode: f.type === 'blob' ? f.mode : REGULAR, type: 'blob', oid: null, content };
    await this.put(to, moved);
  }

  async delete(segments: string[]): Promise<void> {
    if (!(await this.file(segments))) throw new IndexError(FILE_MISSING);
    await this.drop(segments);
  }

  /** Sets or clears the executable bit of a regular file. */
  async chmod(segments: string[], executable: boolean): Promise<void> {
    const f = await this.file(segments);
    if (!f || f.type !== 'blob' || (f.mode !== REGULAR && f.mode !== EXECUTABLE)) throw new IndexError(FILE_MISSING);
    await this.put(segments, { ...f, mode: executable ? EXECUTABLE : REGULAR });
  }

  /** Hashes changed trees and new blobs into `batch`; returns the root tree id. */
  async write(batch: ObjectBatch): Promise<string> {
    return (await this.writeDir(this.root, batch))!;
  }

  /** A directory's tree id, or null when it ended up empty (and is not the root). */
  private async writeDir(dir: Dir, batch: ObjectBatch, isRoot = true): Promise<string | null> {
    if (!dir.dirty) return dir.oid;
    const out = [];
    for (const [name, e] of dir.entries!) {
      if (e.kind === 'dir') {
        const oid = await this.writeDir(e.dir, batch, false);
        if (oid) out.push({ mode: '040000', name, oid, type: 'tree' as const });
      } else {
        const oid = e.content ? batch.blob(e.content) : e.oid!;
        out.push({ mode: e.mode, name, oid, type: e.type });
      }
    }
    if (!out.length && !isRoot) return null;
    dir.oid = batch.tree(out);
    dir.dirty = false;
    return dir.oid;
  }
}
