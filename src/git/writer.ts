// Building git objects in memory and writing them to a bare repository. Object ids are
// computed here (sha1 of the canonical encoding), so a request can decide whether its commit
// changes anything before a single object is written; `flush` then writes them loose.
// Commits are encoded by hand because isomorphic-git appends a newline to the message, and
// GitLab (Rugged) stores the message exactly as given.
//
// Loose objects are written as git writes them (object-file.c): deflated into a temporary
// `tmp_obj_*` file in the object's fan-out folder, flushed to disk (fsync, as git does with
// core.fsync=loose-object), then renamed to the object's name. A kill mid-write leaves only a
// temporary file, which git ignores and the start-up sweep removes, never a truncated object
// under a real name. An object already under its name is replaced the same way instead of
// trusted: a truncated one left by an older crash would otherwise be kept forever (201, then
// 404 on read, `git fsck`: corrupt loose object); the rename is atomic, so readers see the
// old file or the new one. Nothing here creates the repository's folders: a repository that
// vanished (renamed, deleted) fails the write with RepositoryGoneError.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { isMissingPath, RepositoryGoneError } from './repo_gone.js';

const deflate = promisify(zlib.deflate);
/** Times a fan-out folder removed under a write (by a concurrent repack) is made again. */
const FANOUT_RETRIES = 10;
/** Objects written at once by one flush (each is its own file and fsync). */
const PARALLEL_WRITES = 8;

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

export interface NewTreeEntry {
  mode: string;
  name: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export interface NewCommit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

function hashObject(type: ObjectType, content: Uint8Array): string {
  return crypto.createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** Git sorts tree entries by name bytes, a subtree comparing as if its name ended in '/'. */
function treeOrder(a: NewTreeEntry, b: NewTreeEntry): number {
  const ka = Buffer.from(a.type === 'tree' ? `${a.name}/` : a.name);
  const kb = Buffer.from(b.type === 'tree' ? `${b.name}/` : b.name);
  return Buffer.compare(ka, kb);
}

function encodeTree(entries: NewTreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of [...entries].sort(treeOrder)) {
    const mode = e.type === 'tree' ? '40000' : e.mode.replace(/^0+/, '');
    parts.push(Buffer.from(`${mode} ${e.name}\0`), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/** Git drops these from identities (ident.c); a name cannot carry them. */
export function cleanIdent(s: string): string {
  return s.replace(/[<>\n\r\0]/g, '').trim();
}

function encodeSignature(s: Signature): string {
  return `${cleanIdent(s.name)} <${cleanIdent(s.email)}> ${s.timestamp} +0000`;
}

function encodeCommit(c: NewCommit): Buffer {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${encodeSignature(c.author)}`, `committer ${encodeSignature(c.committer)}`);
  return Buffer.from(`${lines.join('\n')}\n\n${c.message}`);
}

/** An annotated tag object (git's `mktag` format); the tagged object is a commit. */
export interface NewTag {
  object: string;
  name: string;
  tagger: Signature;
  message: string;
}

function encodeTag(t: NewTag): Buffer {
  return Buffer.from(`object ${t.object}\ntype commit\ntag ${t.name}\ntagger ${encodeSignature(t.tagger)}\n\n${t.message}`);
}

/** True when git would refuse the identity: empty once cleaned. */
export function blankIdent(s: string): boolean {
  return cleanIdent(s) === '';
}

/** Objects of one write, hashed as they are added and written together by `flush`. */
export class ObjectBatch {
  private readonly pending = new Map<string, { type: ObjectType; content: Uint8Array }>();

  constructor(readonly gitdir: string) {}

  add(type: ObjectType, content: Uint8Array): string {
    const oid = hashObject(type, content);
    if (!this.pending.has(oid)) this.pending.set(oid, { type, content });
    return oid;
  }

  blob(content: Uint8Array): string {
    return this.add('blob', content);
  }

  tree(entries: NewTreeEntry[]): string {
    return this.add('tree', encodeTree(entries));
  }

  commit(c: NewCommit): string {
    return this.add('commit', encodeCommit(c));
  }

  tag(t: NewTag): string {
    return this.add('tag', encodeTag(t));
  }

  /** Writes every object (loose, deflated, on disk); nothing references them until a ref moves. */
  async flush(): Promise<void> {
    const all = [...this.pending];
    for (let i = 0; i < all.length; i += PARALLEL_WRITES) {
      await Promise.all(all.slice(i, i + PARALLEL_WRITES).map(([oid, o]) => writeLooseObject(this.gitdir, oid, o.type, o.content)));
    }
    this.pending.clear();
  }
}

/** One loose object: temporary file, fsync, rename over its name. */
async function writeLooseObject(gitdir: string, oid: string, type: ObjectType, content: Uint8Array): Promise<void> {
  const fanout = path.join(gitdir, 'objects', oid.slice(0, 2));
  const data = await deflate(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]));
  const tmp = path.join(fanout, `tmp_obj_${crypto.randomBytes(8).toString('hex')}`);
  let file: fs.promises.FileHandle | null = null;
  // A housekeeping repack or prune removes fan-out folders it emptied, possibly between our
  // mkdir and open: make the folder again, as git's own object writer does (a few times: the
  // window spans a trip through the event loop). A missing `objects/` stays an error.
  for (let attempt = 0; !file; attempt++) {
    try {
      await fs.promises.mkdir(fanout); // never recursive: `objects/` must already be there
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw isMissingPath(err) ? new RepositoryGoneError(gitdir) : err;
    }
    try {
      file = await fs.promises.open(tmp, 'wx', 0o444);
    } catch (err) {
      if (attempt < FANOUT_RETRIES && (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw isMissingPath(err) ? new RepositoryGoneError(gitdir) : err;
    }
  }
  try {
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.promises.rename(tmp, path.join(fanout, oid.slice(2)));
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw isMissingPath(err) ? new RepositoryGoneError(gitdir) : err;
  }
}
