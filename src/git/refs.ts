// Branch refs read and moved the way git does it, so Wharf and real git processes can work
// on the same repository: a ref is updated by creating `<ref>.lock` with O_EXCL, checking
// the current value (compare-and-swap), writing the new value into the lock file and
// renaming it over the ref. Deleting also rewrites packed-refs under `packed-refs.lock`.
// A lock file left by a dead process is cleared when met (stale_locks.ts); a repository
// folder that vanished is never re-created here (RepositoryGoneError).
import fs from 'node:fs';
import path from 'node:path';
import { Lru } from './lru.js';
import { isValidFullRef } from './ref_names.js';
import { removeIfStale } from './stale_locks.js';
import { isMissingPath, RepositoryGoneError } from './repo_gone.js';

const OID = /^[0-9a-f]{40}$/;

/** The ref no longer has the value the writer based its work on (or is locked by another). */
export class RefMovedError extends Error {}

/** A name that is no ref of this repository (`refs/heads/../../other.git/...`): never written. */
export class InvalidRefError extends Error {}

/**
 * The file of `ref` in `gitdir`, or null when `ref` is no valid ref name or its file would
 * lie outside `<gitdir>/refs/`. Every ref name joined to a path in this module goes through
 * here: the callers validate names at the edge, this keeps a missed one inside the repository.
 */
function refFile(gitdir: string, ref: string): string | null {
  if (!isValidFullRef(ref)) return null;
  const refsDir = path.resolve(gitdir, 'refs') + path.sep;
  // Joined as before (callers compare with path.join), checked once resolved.
  return path.resolve(gitdir, ref).startsWith(refsDir) ? path.join(gitdir, ref) : null;
}

interface Packed {
  lines: string[];
  refs: Map<string, string>;
}

/** Parsed packed-refs by repository, kept while the file is the same one (inode, size and
 * mtime: git and Wharf replace it by renaming a new file over it). */
const packedCache = new Lru<string, { identity: string; packed: Packed }>(256);

function parsePacked(text: string): Packed {
  const lines = text.split('\n').filter((l) => l !== '');
  const refs = new Map<string, string>();
  for (const line of lines) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space === 40) refs.set(line.slice(41), line.slice(0, 40));
  }
  return { lines, refs };
}

async function readPacked(gitdir: string): Promise<Packed> {
  const file = path.join(gitdir, 'packed-refs');
  let identity: string;
  try {
    const st = fs.statSync(file, { bigint: true });
    identity = `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return { lines: [], refs: new Map() };
  }
  const cached = packedCache.get(gitdir);
  if (cached?.identity === identity) return cached.packed;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { lines: [], refs: new Map() };
  }
  const packed = parsePacked(text);
  packedCache.set(gitdir, { identity, packed });
  return packed;
}

// A loose ref is a 41-byte file: read synchronously, as the object store reads objects (the
// promise API's open, stat, read and close cost more than the read itself).
async function readLoose(gitdir: string, ref: string): Promise<string | null | undefined> {
  const file = refFile(gitdir, ref);
  if (!file) return undefined;
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return OID.test(text) ? text : null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw err;
  }
}

/** The commit id a ref (`refs/heads/x`) points at, or null when it does not exist (or cannot). */
export async function readRef(gitdir: string, ref: string): Promise<string | null> {
  if (!refFile(gitdir, ref)) return null;
  const loose = await readLoose(gitdir, ref);
  if (loose !== undefined) return loose;
  return (await readPacked(gitdir)).refs.get(ref) ?? null;
}

/**
 * Every ref below `prefix` (`refs/heads/`, `refs/tags/`) with its value, by name without the
 * prefix, loose refs winning over packed ones; lock files skipped. Loose refs are listed
 * before packed-refs is read, as git does: `git pack-refs` writes packed-refs before deleting
 * the loose files, so a ref packed meanwhile is in one or the other.
 */
export async function listRefValues(gitdir: string, prefix: 'refs/heads/' | 'refs/tags/'): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string, relative: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const name = relative + e.name;
      if (e.isDirectory()) await walk(path.join(dir, e.name), `${name}/`);
      else if (!e.name.endsWith('.lock')) {
        const oid = await readLoose(gitdir, `${prefix}${name}`);
        if (oid) out.set(name, oid);
      }
    }
  };
  await walk(path.join(gitdir, prefix), '');
  for (const [ref, oid] of (await readPacked(gitdir)).refs) {
    const name = ref.slice(prefix.length);
    if (ref.startsWith(prefix) && !out.has(name)) out.set(name, oid);
  }
  return out;
}

/** Every branch with its head (listRefValues). */
export function listBranchHeads(gitdir: string): Promise<Map<string, string>> {
  return listRefValues(gitdir, 'refs/heads/');
}

/**
 * Creates `file` exclusively, retrying briefly while another process holds it. A lock left
 * by a dead process (older than LOCK_STALE_MS, see stale_locks.ts) is removed and taken.
 */
async function acquire(file: string): Promise<fs.promises.FileHandle> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fs.promises.open(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await removeIfStale(file)) continue;
      if (attempt >= 40) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** Times ref folders removed under a ref update (by a concurrent gc or push) are made again. */
const REF_DIR_RETRIES = 10;

/**
 * Makes the folders of `ref` inside `gitdir`, one level at a time and never `gitdir` itself:
 * a repository that was moved or deleted meanwhile is not re-created (RepositoryGoneError).
 */
async function makeRefDirs(gitdir: string, ref: string): Promise<void> {
  let dir = gitdir;
  for (const part of path.dirname(ref).split('/')) {
    dir = path.join(dir, part);
    try {
      await fs.promises.mkdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw isMissingPath(err) ? new RepositoryGoneError(gitdir) : err;
    }
  }
}

/** Removes now-empty directories from `dir` up to (not including) `refs/heads` or `refs/tags`. */
async function pruneEmptyDirs(gitdir: string, dir: string): Promise<void> {
  const stop = [path.join(gitdir, 'refs', 'heads'), path.join(gitdir, 'refs', 'tags')].find((s) => dir.startsWith(s + path.sep));
  while (stop && dir.startsWith(stop + path.sep)) {
    try {
      await fs.promises.rmdir(dir);
    } catch {
      return;
    }
    dir = path.dirname(dir);
  }
}

/**
 * Runs `fn` with `<ref>.lock` held. `fn` may call `install()` to rename the lock file over
 * the ref (after writing the new value into it); otherwise the lock file is removed.
 */
async function withRefLock<T>(gitdir: string, ref: string, fn: (lock: fs.promises.FileHandle, install: () => Promise<void>) => Promise<T>): Promise<T> {
  const refPath = refFile(gitdir, ref);
  if (!refPath) throw new InvalidRefError(`not a ref of this repository: ${JSON.stringify(ref)}`);
  const lockPath = `${refPath}.lock`;
  let lock: fs.promises.FileHandle | null = null;
  // `git pack-refs --prune` (housekeeping's gc) and pushes remove ref folders they emptied,
  // possibly between our mkdir and the lock: make them again, a few times, as git does. A
  // repository that is gone fails in makeRefDirs.
  for (let attempt = 0; !lock; attempt++) {
    await makeRefDirs(gitdir, ref);
    try {
      lock = await acquire(lockPath);
    } catch (err) {
      if (attempt < REF_DIR_RETRIES && (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      await pruneEmptyDirs(gitdir, path.dirname(refPath));
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new RefMovedError(`${ref} is locked`);
      throw isMissingPath(err) ? new RepositoryGoneError(gitdir) : err;
    }
  }
  const held = lock;
  let installed = false;
  const install = async () => {
    await held.sync();
    await held.close();
    await fs.promises.rename(lockPath, refPath);
    installed = true;
  };
  try {
    return await fn(held, install);
  } finally {
    // Once renamed, the lock path may already belong to the next writer: leave it alone.
    if (!installed) {
      await held.close().catch(() => {});
      await fs.promises.rm(lockPath, { force: true });
    }
    await pruneEmptyDirs(gitdir, path.dirname(refPath));
  }
}

/**
 * Points `ref` at `newOid` if it still points at `expected` (null: it must not exist).
 * Throws RefMovedError otherwise, leaving the ref as it was.
 */
export async function updateRef(gitdir: string, ref: string, newOid: string, expected: string | null): Promise<void> {
  await withRefLock(gitdir, ref, async (lock, install) => {
    const current = await readRef(gitdir, ref);
    if (current !== expected) throw new RefMovedError(`${ref} moved`);
    await lock.writeFile(`${newOid}\n`);
    await install();
  });
}

/** Deletes `ref` if it still points at `expected`; throws RefMovedError otherwise. */
export async function deleteRef(gitdir: string, ref: string, expected: string): Promise<void> {
  await withRefLock(gitdir, ref, async () => {
    const current = await readRef(gitdir, ref);
    if (current !== expected) throw new RefMovedError(`${ref} moved`);
    const packed = await readPacked(gitdir);
    if (packed.refs.has(ref)) await rewritePacked(gitdir, ref);
    await fs.promises.rm(refFile(gitdir, ref)!, { force: true }); // checked by withRefLock
  });
}

/** Rewrites packed-refs without `ref` (and its peeled line), under packed-refs.lock. */
async function rewritePacked(gitdir: string, ref: string): Promise<void> {
  const file = path.join(gitdir, 'packed-refs');
  const lockPath = `${file}.lock`;
  let lock: fs.promises.FileHandle;
  try {
    lock = await acquire(lockPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new RefMovedError('packed-refs is locked');
    throw err;
  }
  let installed = false;
  try {
    const { lines } = await readPacked(gitdir);
    const kept: string[] = [];
    let dropping = false;
    for (const line of lines) {
      if (line.startsWith('^')) {
        if (!dropping) kept.push(line);
        continue;
      }
      dropping = !line.startsWith('#') && line.slice(41) === ref;
      if (!dropping) kept.push(line);
    }
    await lock.writeFile(kept.length ? `${kept.join('\n')}\n` : '');
    await lock.sync();
    await lock.close();
    await fs.promises.rename(lockPath, file);
    installed = true;
  } finally {
    if (!installed) {
      await lock.close().catch(() => {});
      await fs.promises.rm(lockPath, { force: true });
    }
  }
}

/**
 * Points HEAD at `ref` (`refs/heads/<branch>`, which may not exist yet) the way git does:
 * written into HEAD.lock and renamed over HEAD. Never truncated in place: git finds a
 * repository by its HEAD, and a `git gc` or push starting while HEAD is empty would fail
 * with "not a git repository".
 */
export async function writeSymbolicHead(gitdir: string, ref: string): Promise<void> {
  if (!isValidFullRef(ref) || !ref.startsWith('refs/heads/')) throw new InvalidRefError(`not a branch ref: ${JSON.stringify(ref)}`);
  const head = path.join(gitdir, 'HEAD');
  const lockPath = `${head}.lock`;
  let lock: fs.promises.FileHandle;
  try {
    lock = await acquire(lockPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new RefMovedError('HEAD is locked');
    throw isMissingPath(err) ? new RepositoryGoneError(gitdir) : err;
  }
  let installed = false;
  try {
    await lock.writeFile(`ref: ${ref}\n`);
    await lock.sync();
    await lock.close();
    await fs.promises.rename(lockPath, head);
    installed = true;
  } finally {
    if (!installed) {
      await lock.close().catch(() => {});
      await fs.promises.rm(lockPath, { force: true });
    }
  }
}
