// Where bare repositories live on disk (`<namespace full path>/<project path>.git` under the
// root), and making, moving and removing their folders. Each of those is one rename(2), atomic
// on one file system: a repository is built in a temporary folder and renamed into place, a
// deleted one is renamed into the trash first and removed from there. Wharf's own
// bookkeeping lives beside the repositories in `@wharf/` (a name no namespace can take, as
// GitLab's `@hashed`): the repository locks (lock.ts), the journal of moves
// (repo_journal.ts), the trash and the temporary folders. The callers take the repository
// lock and write the journal (services/repository/moves.ts); this file only touches disk.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from './iso.js';
import { readRef, writeSymbolicHead } from './refs.js';
import { RepoLocks } from './lock.js';
import { RepoJournal, syncDir } from './repo_journal.js';

/** A folder is already where a repository should go (an orphan on disk, or a racing create). */
export class RepositoryExistsError extends Error {}

/** Attempts at removing a trashed folder that a still-running git process keeps writing into. */
const PURGE_ATTEMPTS = 5;

export class RepoStore {
  readonly locks: RepoLocks;
  readonly journal: RepoJournal;
  readonly trashDir: string;
  readonly tmpDir: string;

  constructor(
    readonly root: string,
    onLockCompromised?: (key: string, err: Error) => void,
  ) {
    fs.mkdirSync(root, { recursive: true });
    const meta = path.join(root, '@wharf');
    this.locks = new RepoLocks(path.join(meta, 'locks'), onLockCompromised);
    this.journal = new RepoJournal(path.join(meta, 'journal'));
    this.trashDir = path.join(meta, 'trash');
    this.tmpDir = path.join(meta, 'tmp');
    fs.mkdirSync(this.trashDir, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  pathFor(fullPath: string): string {
    const resolved = path.resolve(this.root, `${fullPath}.git`);
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`repository path escapes the root: ${fullPath}`);
    if (path.relative(this.root, resolved).startsWith('@')) throw new Error(`repository path is Wharf's own folder: ${fullPath}`);
    return resolved;
  }

  /**
   * A name for a temporary folder: `<host>.<pid>.<random>`, so that the start-up sweep can
   * tell a dead process's leftovers from a live one's.
   */
  tempPath(): string {
    return path.join(this.tmpDir, `${os.hostname()}.${process.pid}.${crypto.randomBytes(8).toString('hex')}.git`);
  }

  /**
   * Makes the repository of `fullPath`: built in a temporary folder (an empty bare repository,
   * or what `populate` puts at the path it is given), then renamed into place. Throws
   * RepositoryExistsError when a repository folder is already there.
   */
  async create(fullPath: string, defaultBranch = 'master', populate?: (dir: string) => Promise<void>): Promise<string> {
    const dir = this.pathFor(fullPath);
    const tmp = this.tempPath();
    try {
      if (populate) await populate(tmp);
      else await git.init({ fs, dir: tmp, gitdir: tmp, bare: true, defaultBranch });
      await fs.promises.mkdir(path.dirname(dir), { recursive: true });
      try {
        await fs.promises.rename(tmp, dir); // replaces an empty folder, never a repository
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') throw new RepositoryExistsError(fullPath);
        throw err;
      }
      await syncDir(path.dirname(dir));
      return dir;
    } finally {
      await fs.promises.rm(tmp, { recursive: true, force: true });
    }
  }

  exists(fullPath: string): boolean {
    return fs.existsSync(path.join(this.pathFor(fullPath), 'HEAD'));
  }

  /** True when anything (a repository or a stray folder) is at the repository path. */
  occupied(fullPath: string): boolean {
    return fs.existsSync(this.pathFor(fullPath));
  }

  /** Moves the repository into the trash as `name`; false when there was no folder. */
  async trash(fullPath: string, name: string): Promise<boolean> {
    try {
      await fs.promises.rename(this.pathFor(fullPath), this.trashPath(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    await syncDir(this.trashDir);
    return true;
  }

  /** Puts a trashed repository back at `fullPath` (a delete that did not happen). */
  async untrash(name: string, fullPath: string): Promise<boolean> {
    const from = this.trashPath(name);
    if (!fs.existsSync(from)) return false;
    const to = this.pathFor(fullPath);
    if (fs.existsSync(to)) throw new RepositoryExistsError(fullPath);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.rename(from, to);
    return true;
  }

  /** Removes a trashed folder for good; false when it could not (retried by the start-up sweep). */
  async purge(name: string): Promise<boolean> {
    for (let attempt = 0; attempt < PURGE_ATTEMPTS; attempt++) {
      try {
        await fs.promises.rm(this.trashPath(name), { recursive: true, force: true });
        return true;
      } catch {
        // ENOTEMPTY: a git process that had entered the folder still writes into it
        await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
      }
    }
    return false;
  }

  trashPath(name: string): string {
    if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) throw new Error(`invalid trash name: ${name}`);
    return path.join(this.trashDir, name);
  }

  /** Moves a repository to the trash and removes it (no journal: for folders no project owns). */
  async remove(fullPath: string): Promise<void> {
    const name = `orphan-${crypto.randomBytes(8).toString('hex')}`;
    if (await this.trash(fullPath, name)) await this.purge(name);
  }

  /** Bytes on disk under the repository, for project statistics. */
  async size(fullPath: string): Promise<number> {
    let total = 0;
    const walk = async (dir: string): Promise<void> => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.isFile()) total += (await fs.promises.stat(p).catch(() => null))?.size ?? 0; // gone meanwhile (a repack's temporary file)
      }
    };
    await walk(this.pathFor(fullPath));
    return total;
  }

  /**
   * Whether `refs/heads/<branch>` exists, the name taken literally: a name git cannot have
   * (`./master`, `../../other.git/refs/heads/master`) names no branch, as in GitLab, whose
   * branch_exists? looked the name up in the list of branch names.
   */
  async branchExists(fullPath: string, branch: string): Promise<boolean> {
    return (await readRef(this.pathFor(fullPath), `refs/heads/${branch}`)) !== null;
  }

  /** Points HEAD at a branch (which may not exist yet in an empty repository). */
  async setHead(fullPath: string, branch: string): Promise<void> {
    const dir = this.pathFor(fullPath);
    await writeSymbolicHead(dir, `refs/heads/${branch}`); // atomically: a gc may be starting
  }

  /** Moves a repository folder; RepositoryExistsError when something is at the target. */
  async move(fromFullPath: string, toFullPath: string): Promise<void> {
    const from = this.pathFor(fromFullPath);
    const to = this.pathFor(toFullPath);
    // A change of case only is the same folder on case-insensitive file systems.
    if (from.toLowerCase() !== to.toLowerCase() && fs.existsSync(to)) throw new RepositoryExistsError(toFullPath);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.rename(from, to);
    await syncDir(path.dirname(to));
  }
}
