// Git's lock files (`refs/heads/<branch>.lock`, `packed-refs.lock`, `HEAD.lock`, …) left
// behind by a process that died holding them. Git never clears them itself ("If it still
// fails, a git process may have crashed in this repository earlier: remove the file
// manually"), so after a kill the branch answered 400 "Could not update branch" and `git
// push` "cannot lock ref" forever.
//
// Staleness is judged by age alone. A ref lock's content is the ref's next value (the file is
// renamed over the ref), so it cannot name its owner; and git holds these locks for the
// milliseconds of one ref transaction. A lock older than LOCK_STALE_MS therefore belongs to
// a dead process. Wharf removes such a lock where it meets one (refs.ts, before a push in
// transport/) and sweeps every repository at start, with `tmp_obj_*` files (half-written
// loose objects, see writer.ts) older than the same bound.
import fs from 'node:fs';
import path from 'node:path';

const LOCK_STALE_MS = 10_000;

/** Removes `file` if it is older than LOCK_STALE_MS; true when it was removed. */
export async function removeIfStale(file: string, now = Date.now()): Promise<boolean> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.lstat(file);
  } catch {
    return false;
  }
  if (!stat.isFile() || now - stat.mtimeMs < LOCK_STALE_MS) return false;
  await fs.promises.rm(file, { force: true });
  return true;
}

/** Files under `dir` (recursively) whose name passes `wanted`. */
async function filesUnder(dir: string, wanted: (name: string) => boolean, out: string[] = []): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await filesUnder(p, wanted, out);
    else if (wanted(e.name)) out.push(p);
  }
  return out;
}

/** Clears one repository's stale lock files and temporary objects; returns how many went. */
export async function sweepStaleFiles(gitdir: string): Promise<number> {
  const candidates = await filesUnder(path.join(gitdir, 'refs'), (name) => name.endsWith('.lock'));
  for (const name of ['packed-refs.lock', 'HEAD.lock', 'config.lock', 'shallow.lock']) candidates.push(path.join(gitdir, name));
  let fanouts: string[] = [];
  try {
    fanouts = (await fs.promises.readdir(path.join(gitdir, 'objects'))).filter((d) => /^[0-9a-f]{2}$/.test(d));
  } catch {
    // no objects folder: nothing to sweep there
  }
  for (const d of fanouts) candidates.push(...(await filesUnder(path.join(gitdir, 'objects', d), (name) => name.startsWith('tmp_obj_'))));
  let removed = 0;
  for (const file of candidates) if (await removeIfStale(file)) removed++;
  return removed;
}

/** A ref name that stays inside `refs/` once joined to a repository folder. */
function refInside(ref: string): boolean {
  if (!ref.startsWith('refs/')) return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.'));
}

/**
 * Before a push: clears stale lock files of the refs it updates (and of packed-refs, which a
 * deletion rewrites), so that a crash's leftovers do not make git refuse them. Refs that are
 * not plain names under `refs/` are skipped (git refuses them itself).
 */
export async function clearStaleRefLocks(gitdir: string, refs: string[]): Promise<void> {
  const files = [path.join(gitdir, 'packed-refs.lock')];
  for (const ref of refs) if (refInside(ref)) files.push(path.join(gitdir, `${ref}.lock`));
  for (const file of files) await removeIfStale(file);
}
