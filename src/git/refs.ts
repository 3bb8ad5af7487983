// Branch refs read and moved the way git does it, so Wharf and real git processes can work
// on the same repository: a ref is updated by creating `<ref>.lock` with O_EXCL, checking
// the current value (compare-and-swap), writing the new value into the lock file and
// renaming it over the ref. Deleting also rewrites packed-refs under `packed-refs.lock`.
// A lock file left by a dead process is cleared when met (stale_locks.ts); a repository
// folder that vanished is never re-created here (RepositoryGoneError).
import fs from 'node:fs';
import path from 'node:path';
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

async function readPacked(gitdir: string): Promise<Packed> {
  let text = '';
  try {
    text = await fs.promises.readFile(path.join(gitdir, 'packed-refs'), 'utf8');
  } catch {
    return { lines: [], refs: new Map() };
  }
  const lines = text.split('\n').filter((l) => l !== '');
  const refs = new Map<string, string>();
  for (const line of lines) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space === 40) refs.set(line.slice(41), line.slice(0, 40));
  }
  return { lines, refs };
}

async function readLoose(gitdir: string, ref: string): Promise<string | null | undefined> {
  const file = refFile(gitdir, ref);
  if (!file) return undefined;
  try {
    const text = (await fs.promises.readFile(file, 'utf8')).trim();
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

/** Every branch with its head, loose refs winning over packed ones; lock files skipped. */
export async function listBranchHeads(gitdir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [ref, oid] of (await readPacked(gitdir)).refs) {
    if (ref.startsWith('refs/heads/')) out.set(ref.slice('refs/heads/'.length), oid);
  }
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const name = prefix + e.name;
      if (e.isDirectory()) await walk(path.join(dir, e.name), `${name}/`);
      else if (!e.name.endsWith('.lock')) {
        const oid = await readLoose(gitdir, `refs/heads/${name}`);
        if (oid) out.set(name, oid);
      }
    }
  };
  await walk(path.join(gitdir, 'refs', 'heads'), '');
  return out;
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
async function withRefLock<T>(
  gitdir: string,
  ref: string,
  fn: (lock: fs.promises.FileHandle, install: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const refPath = refFile(gitdir, ref);
  if (!refPath) throw new InvalidRefError(`not a ref of this repository: ${JSON.stringify(ref)}`);
  const lockPath = `${refPath}.lock`;
  await makeRefDirs(gitdir, ref);
  let lock: fs.promises.FileHandle;
  try {
    lock = await acquire(lockPath);
  } catch (err) {
    await pruneEmptyDirs(gitdir, path.dirname(refPath));
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new RefMovedError(`${ref} is locked`);
    throw isMissingPath(err) ? new RepositoryGoneError(gitdir) : err;
  }
  let installed = false;
  const install = async () => {
    await lock.sync();
    await lock.close();
    await fs.promises.rename(lockPath, refPath);
    installed = true;
  };
  try {
    return await fn(lock, install);
  } finally {
    // Once renamed, the lock path may already belong to the next writer: leave it alone.
    if (!installed) {
      await lock.close().catch(() => {});
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
