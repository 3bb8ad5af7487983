// Where bare repositories live on disk, and creating/removing them with isomorphic-git.
import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { readRef } from './refs.js';

/** A project's repository location: `<namespace full path>/<project path>.git`. */
export class RepoStore {
  constructor(readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  pathFor(fullPath: string): string {
    const resolved = path.resolve(this.root, `${fullPath}.git`);
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`repository path escapes the root: ${fullPath}`);
    return resolved;
  }

  async create(fullPath: string, defaultBranch = 'master'): Promise<string> {
    const dir = this.pathFor(fullPath);
    await fs.promises.mkdir(dir, { recursive: true });
    await git.init({ fs, dir, gitdir: dir, bare: true, defaultBranch });
    return dir;
  }

  exists(fullPath: string): boolean {
    return fs.existsSync(path.join(this.pathFor(fullPath), 'HEAD'));
  }

  async remove(fullPath: string): Promise<void> {
    await fs.promises.rm(this.pathFor(fullPath), { recursive: true, force: true });
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
        else if (e.isFile()) total += (await fs.promises.stat(p)).size;
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
    await git.writeRef({ fs, gitdir: dir, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true });
  }

  async move(fromFullPath: string, toFullPath: string): Promise<void> {
    const from = this.pathFor(fromFullPath);
    const to = this.pathFor(toFullPath);
    if (fs.existsSync(to)) throw new Error(`repository already exists at ${toFullPath}`);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.rename(from, to);
  }
}
